import type { Platform } from '../../db/tables.ts';
import type { ChatPlatform } from '../chat-platform/platform.ts';
import { discordPlatform } from './discord/platform.ts';
import { googleChatPlatform } from './google-chat/platform.ts';
import { mattermostPlatform } from './mattermost/platform.ts';
import { teamsPlatform } from './microsoft-teams/platform.ts';
import { slackPlatform } from './slack/platform.ts';

/**
 * Every chat platform, by the `kind` an organization connects (PATCH /v1/organization/ `platform`). A new platform
 * is a folder beside these (its platform.ts, and its feature.ts when people answer through it) and one line here
 * and in db/tables/outbox.ts PLATFORMS.
 */
export const PLATFORMS: Readonly<Record<Platform, ChatPlatform>> = {
  slack: slackPlatform,
  microsoft_teams: teamsPlatform,
  discord: discordPlatform,
  google_chat: googleChatPlatform,
  mattermost: mattermostPlatform,
};

import * as yup from 'yup';
import { PLATFORMS } from '../../db/tables.ts';

/**
 * `platform` in PATCH /v1/organization/: connects a chat platform (null disconnects). Slack takes a bot token
 * (xoxb-…) and, for people to answer in Slack, the app's signing secret; Teams, Discord and Google Chat an app's
 * credentials (app-credentials.ts) or an incoming-webhook URL. All are write-only secrets.
 */
export const platformConnectionSchema = yup
  .object({
    kind: yup.string().oneOf(PLATFORMS).required(),
    bot_token: yup.string().trim().max(512),
    signing_secret: yup.string().trim().max(128),
    webhook_url: yup.string().trim().max(2048),
    channel_name: yup.string().trim().min(1).max(200),
    // Mattermost: the server's address and the /rollcall slash command's token.
    server_url: yup.string().trim().max(2048),
    command_token: yup.string().trim().max(128),
    // Teams as a bot, Google Chat as an app (app-credentials.ts).
    app_id: yup.string().trim().max(64),
    app_password: yup.string().trim().max(512),
    tenant_id: yup.string().trim().max(64),
    service_account: yup.string().trim().max(16_384),
    project_number: yup.string().trim().max(32),
    // Discord as a bot (app-credentials.ts): with bot_token.
    application_id: yup.string().trim().max(32),
    public_key: yup.string().trim().max(128),
  })
  .nullable()
  .default(undefined);
export type PlatformConnectionInput = yup.InferType<typeof platformConnectionSchema>;

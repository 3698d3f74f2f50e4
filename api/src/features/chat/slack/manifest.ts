import { REQUEST_PATHS } from './requests.ts';

/**
 * The Slack app manifest an admin pastes at api.slack.com/apps › Create New App › From a manifest: the bot's
 * scopes, the App Home, the events, interactivity and the `/rollcall` command, with this server's public URLs.
 * Slack needs https URLs it can reach; the admin screen says so when PUBLIC_URL is not one.
 */
export function slackManifest(publicBase: string, appName = 'Rollcall'): Record<string, unknown> {
  return {
    display_information: {
      name: appName,
      description: 'Check-ins answered where your team talks.',
      background_color: '#1f2937',
    },
    features: {
      app_home: { home_tab_enabled: true, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: appName, always_online: true },
      slash_commands: [
        { command: '/rollcall', url: `${publicBase}${REQUEST_PATHS.commands}`, description: 'Answer your check-in, give kudos, see today\'s status', usage_hint: '[status | help | kudos @someone message]', should_escape: true },
      ],
    },
    oauth_config: {
      scopes: {
        bot: ['chat:write', 'chat:write.public', 'im:write', 'im:history', 'users:read', 'users:read.email', 'channels:read', 'groups:read', 'commands'],
      },
    },
    settings: {
      event_subscriptions: { request_url: `${publicBase}${REQUEST_PATHS.events}`, bot_events: ['app_home_opened', 'message.im'] },
      interactivity: { is_enabled: true, request_url: `${publicBase}${REQUEST_PATHS.interactions}` },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
}

import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';
import { APP_PLATFORMS, AppConnection } from './admin-chat-apps.tsx';
import type { AppFields } from './admin-chat-apps.tsx';

const PLATFORMS = ['slack', 'microsoft_teams', 'discord', 'google_chat', 'mattermost'] as const;
const PLATFORM_NAMES: Record<string, string> = { slack: 'Slack', microsoft_teams: 'Microsoft Teams', discord: 'Discord', google_chat: 'Google Chat', mattermost: 'Mattermost' };

/** GET /v1/integrations/: can people answer through the connection, the URLs to paste, who was not found. */
type Status = Schemas['IntegrationStatus'];
type Platform = { kind: (typeof PLATFORMS)[number]; bot_token?: string; signing_secret?: string; webhook_url?: string; channel_name?: string };

/**
 * The chat platform connection (PATCH /v1/organization/ {platform}): Slack with its bot token and signing secret
 * (without the secret it sends but people cannot answer in Slack, and this says so), the others with an
 * incoming-webhook URL. Secrets go to the API and are never shown again. For Slack, the app manifest to create
 * the app from; once connected, the request URLs to paste, the people it has no account for, and a test prompt.
 */
export function ChatConnection() {
  const [status, setStatus] = useState<Status | null>(null);
  const [kind, setKind] = useState<(typeof PLATFORMS)[number]>('slack');
  const [secret, setSecret] = useState('');
  const [signing, setSigning] = useState('');
  const [channel, setChannel] = useState('');
  const [mattermost, setMattermost] = useState({ server_url: '', command_token: '' });
  // Teams and Google Chat as an app (admin-chat-apps.tsx): its fields; null connects an incoming webhook.
  const [app, setApp] = useState<AppFields | null>({});
  const [error, setError] = useState<string | null>(null);
  const refresh = () => ok(api.GET('/v1/integrations/')).then(setStatus, (err: Error) => setError(err.message));
  useEffect(() => void refresh(), []);

  async function save(platform: Platform | null) {
    setError(null);
    try {
      await ok(api.PATCH('/v1/organization/', { body: { platform } }));
      setSecret('');
      setSigning('');
      setMattermost({ ...mattermost, command_token: '' });
      await refresh();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const current = status?.platform || null;
  const slack = kind === 'slack' || current === 'slack';
  return (
    <section class="card" aria-labelledby="chat-title">
      <h2 id="chat-title">{t('chat.title')}</h2>
      <p role="status">{status === null ? '' : current ? t('chat.connected', { platform: PLATFORM_NAMES[current] ?? current }) : t('chat.none')}</p>
      {current && status ? <Receiving status={status} /> : null}
      {slack ? <SlackManifest /> : null}
      {current ? <button type="button" onClick={() => save(null)}>{t('chat.disconnect')}</button> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const asApp = APP_PLATFORMS.has(kind) && app !== null;
          const credentials =
            asApp ? app
            : kind === 'slack' ? { bot_token: secret, ...(signing ? { signing_secret: signing } : {}) }
            : kind === 'mattermost' ? { bot_token: secret, server_url: mattermost.server_url, ...(mattermost.command_token ? { command_token: mattermost.command_token } : {}) }
            : { webhook_url: secret };
          void save({ kind, ...credentials, ...(channel ? { channel_name: channel } : {}) });
        }}
      >
        <label for="chat-kind">{t('chat.platform')}</label>
        <select id="chat-kind" value={kind} onChange={(e) => {
          setKind((e.target as HTMLSelectElement).value as (typeof PLATFORMS)[number]);
          setApp({});
        }}>
          {PLATFORMS.map((p) => <option key={p} value={p}>{PLATFORM_NAMES[p]}</option>)}
        </select>
        {kind === 'mattermost' ? <MattermostServer value={mattermost.server_url} onInput={(server_url) => setMattermost({ ...mattermost, server_url })} /> : null}
        {APP_PLATFORMS.has(kind) ? <AppConnection key={kind} kind={kind} onChange={setApp} /> : null}
        {APP_PLATFORMS.has(kind) && app !== null ? null : <label for="chat-secret">{kind === 'slack' ? t('chat.token') : kind === 'mattermost' ? t('chat.mattermost.token') : t('chat.webhook')}</label>}
        {APP_PLATFORMS.has(kind) && app !== null ? null : kind === 'slack' || kind === 'mattermost' ? (
          <input id="chat-secret" type="password" required autoComplete="off" value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
        ) : (
          <input id="chat-secret" type="url" required autoComplete="off" value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
        )}
        {kind === 'slack' ? (
          <>
            <label for="chat-signing">{t('chat.signing')}</label>
            <input id="chat-signing" type="password" autoComplete="off" aria-describedby="chat-signing-hint" value={signing} onInput={(e) => setSigning((e.target as HTMLInputElement).value)} />
            <p id="chat-signing-hint" class="muted">{t('chat.signing.hint')}</p>
          </>
        ) : null}
        {kind === 'mattermost' ? (
          <>
            <label for="chat-command">{t('chat.mattermost.command')}</label>
            <input id="chat-command" type="password" autoComplete="off" aria-describedby="chat-command-hint" value={mattermost.command_token} onInput={(e) => setMattermost({ ...mattermost, command_token: (e.target as HTMLInputElement).value })} />
            <p id="chat-command-hint" class="muted">{t('chat.mattermost.command.hint')}</p>
          </>
        ) : null}
        <label for="chat-channel">{t('chat.channel')}</label>
        <input id="chat-channel" maxLength={200} value={channel} onInput={(e) => setChannel((e.target as HTMLInputElement).value)} />
        <button type="submit" class="primary">{current ? t('chat.replace') : t('chat.connect')}</button>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

/** What the connection can do: answer in the platform or not (and why), the URLs to paste, who was not found, a test. */
function Receiving({ status }: { status: Status }) {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function test() {
    setError(null);
    setSent(null);
    try {
      const answer = await ok(api.POST('/v1/integrations/test-prompt/'));
      setSent(t('chat.test.sent', { to: answer.to, platform: status.label ?? '' }));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <div class="chat-receiving">
      <p class={status.can_receive ? 'ok' : 'warning'}>{status.can_receive ? t('chat.receives', { platform: status.label ?? '' }) : `${t('chat.cannot')} ${status.problem ?? ''}`}</p>
      {status.request_urls.length ? (
        <>
          <h3>{t('chat.urls')}</h3>
          {status.url_problem ? <p class="warning">{status.url_problem}</p> : null}
          <dl class="urls">
            {status.request_urls.map((u) => (
              <div key={u.url}>
                <dt>{u.name}</dt>
                <dd><code>{u.url}</code></dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <h3>{t('chat.notfound')}</h3>
      {status.people_not_found.length ? (
        <>
          <p class="muted">{status.platform === 'discord' ? t('chat.notfound.link') : t('chat.notfound.hint', { platform: status.label ?? '' })}</p>
          <ul>{status.people_not_found.map((p) => <li key={p.uuid}>{`${p.first_name} ${p.last_name}`.trim()} <span class="muted">({p.email})</span></li>)}</ul>
        </>
      ) : (
        <p class="muted">{t('chat.notfound.none')}</p>
      )}
      {status.can_receive ? (
        <p>
          <button type="button" onClick={() => void test()}>{t('chat.test')}</button>
        </p>
      ) : null}
      {sent ? <p role="status">{sent}</p> : null}
      <ErrorNote message={error} />
    </div>
  );
}

/** The Slack app's manifest with this server's addresses (GET /v1/integrations/slack/manifest/): to create the app from. */
function SlackManifest() {
  const [manifest, setManifest] = useState<string | null>(null);
  useEffect(() => void ok(api.GET('/v1/integrations/slack/manifest/')).then((m) => setManifest(JSON.stringify(m, null, 2)), () => {}), []);
  if (!manifest) return null;
  return (
    <details>
      <summary>{t('chat.manifest')}</summary>
      <p class="muted">{t('chat.manifest.hint')}</p>
      <pre class="manifest" tabIndex={0} aria-label={t('chat.manifest')}><code>{manifest}</code></pre>
    </details>
  );
}

/** Mattermost's server address: where Rollcall calls its REST API (`{server}/api/v4`). */
function MattermostServer({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <>
      <label for="chat-server">{t('chat.mattermost.server')}</label>
      <input id="chat-server" type="url" required autoComplete="off" placeholder="https://chat.example.com" value={value} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
    </>
  );
}

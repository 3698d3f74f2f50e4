import { createHmac } from 'node:crypto';
import { startHttpsReceiver } from './receivers.ts';
import type { Received } from './receivers.ts';

/**
 * A stand-in of Slack for tests and benchmarks, on both sides of the conversation:
 * - its Web API, a real local HTTPS server (point SLACK_API_URL at `api`) that records every call and answers
 *   as Slack documents: auth.test, users.lookupByEmail, users.info, conversations.open, chat.postMessage,
 *   chat.update, views.open, views.publish, conversations.list. A wrong bot token answers `invalid_auth`.
 * - the requests Slack sends to Rollcall's request URLs, signed with a real HMAC signing secret (v0), as form
 *   fields (interactivity, slash commands) or JSON (Events API).
 */
export const SLACK_TOKEN = 'xoxb-test-token';
export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const TEAM = 'T0ACME';

export interface SlackStandIn {
  api: string;
  received: Received[];
  /** Calls of one Web API method, in order. */
  calls(method: string): Received[];
  /** Slack users by e-mail (lower case) → user id; add people with `addUser`. */
  addUser(email: string, id?: string): string;
  close(): Promise<void>;
}

export async function startSlackStandIn(options: { team?: string; delayMs?: number } = {}): Promise<SlackStandIn> {
  const team = options.team ?? TEAM;
  const users = new Map<string, string>();
  let ts = 1_700_000_000;
  const rx = await startHttpsReceiver(async (req) => {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const url = new URL(req.url, 'https://slack.test');
    if (req.headers.authorization !== `Bearer ${SLACK_TOKEN}`) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
    const method = url.pathname.replace(/^\/api\//, '');
    const ok = (body: Record<string, unknown> = {}) => ({ status: 200, body: { ok: true, ...body } });
    switch (method) {
      case 'auth.test':
        return ok({ team_id: team, team: 'Acme', user_id: 'UBOT', bot_id: 'BBOT' });
      case 'users.lookupByEmail': {
        const id = users.get((url.searchParams.get('email') ?? '').toLowerCase());
        return id ? ok({ user: { id, team_id: team } }) : { status: 200, body: { ok: false, error: 'users_not_found' } };
      }
      case 'users.info': {
        const id = url.searchParams.get('user');
        const email = [...users].find(([, u]) => u === id)?.[0];
        return email ? ok({ user: { id, profile: { email } } }) : { status: 200, body: { ok: false, error: 'user_not_found' } };
      }
      case 'conversations.open':
        return ok({ channel: { id: `D${String(req.json.users).replace(/,/g, '')}` } });
      case 'chat.postMessage':
        return ok({ channel: req.json.channel, ts: `${ts++}.000100` });
      case 'chat.update':
        return ok({ channel: req.json.channel, ts: req.json.ts });
      case 'views.open':
      case 'views.publish':
        return ok({ view: { id: `V${ts++}` } });
      case 'conversations.list':
        return ok({ channels: [{ id: 'C1', name: 'standup', is_private: false }], response_metadata: { next_cursor: '' } });
      default:
        return { status: 200, body: { ok: false, error: 'unknown_method' } };
    }
  });
  return {
    api: `${rx.url}/api`,
    received: rx.received,
    calls: (method) => rx.received.filter((r) => new URL(r.url, 'https://slack.test').pathname === `/api/${method}`),
    addUser(email, id) {
      const userId = id ?? `U${email.split('@')[0].toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
      users.set(email.toLowerCase(), userId);
      return userId;
    },
    close: () => rx.close(),
  };
}

/** Slack's v0 signature headers for a body sent at `at` (Unix seconds), with `secret`. */
export function slackHeaders(raw: string, at: number, secret = SIGNING_SECRET, contentType = 'application/x-www-form-urlencoded'): Record<string, string> {
  const timestamp = String(Math.floor(at));
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${raw}`).digest('hex')}`;
  return { 'content-type': contentType, 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature };
}

/** An interaction as Slack posts it: `payload=<JSON>`, form-encoded. */
export const interactionBody = (payload: Record<string, unknown>): string => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** A click on a button of a message: block_actions. */
export const clickPayload = (user: string, value: string, options: { team?: string; trigger?: string; action?: string } = {}) => ({
  type: 'block_actions',
  team: { id: options.team ?? TEAM, domain: 'acme' },
  user: { id: user, team_id: options.team ?? TEAM },
  api_app_id: 'A1',
  trigger_id: options.trigger ?? `trigger.${user}.${Math.random().toString(36).slice(2)}`,
  container: { type: 'message', channel_id: `D${user}` },
  actions: [{ type: 'button', action_id: options.action ?? 'rollcall_answer', block_id: 'b', value, action_ts: '1' }],
});

/** A modal submitted: view_submission with the inputs' state (`values`: `q.<uuid>` → the input's value object). */
export const submitPayload = (user: string, view: { private_metadata: string; callback_id?: string }, values: Record<string, Record<string, unknown>>, team = TEAM) => ({
  type: 'view_submission',
  team: { id: team, domain: 'acme' },
  user: { id: user, team_id: team },
  api_app_id: 'A1',
  view: { id: 'V1', type: 'modal', callback_id: view.callback_id ?? 'rollcall_answer', private_metadata: view.private_metadata, state: { values: Object.fromEntries(Object.entries(values).map(([block, value]) => [block, { value }])) } },
});

/** A text input's value in a submission. */
export const textValue = (value: string | null) => ({ type: 'plain_text_input', value });

/** An Events API callback, JSON. */
export const eventBody = (event: Record<string, unknown>, options: { team?: string; id?: string } = {}): string =>
  JSON.stringify({ token: 'legacy', team_id: options.team ?? TEAM, api_app_id: 'A1', type: 'event_callback', event_id: options.id ?? `Ev${Math.random().toString(36).slice(2)}`, event_time: 1, event });

/** A direct message a person sends the app. */
export const imMessage = (user: string, text: string) => ({ type: 'message', channel_type: 'im', channel: `D${user}`, user, text, ts: `${Date.now() / 1000}` });

/** A slash command, form-encoded. */
export const commandBody = (user: string, text: string, team = TEAM): string =>
  new URLSearchParams({ token: 'legacy', team_id: team, team_domain: 'acme', channel_id: `D${user}`, user_id: user, user_name: 'x', command: '/rollcall', text, trigger_id: `trigger.${user}`, response_url: 'https://hooks.slack.test/x' }).toString();

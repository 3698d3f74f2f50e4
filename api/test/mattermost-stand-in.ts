import { startHttpsReceiver } from './receivers.ts';
import type { Received } from './receivers.ts';

/**
 * A stand-in of a Mattermost server for tests, on both sides of the conversation:
 * - its REST API (`{server}/api/v4`), a real local HTTPS server (the connection's `server_url`) that records
 *   every call and answers as Mattermost documents: users/me, users/email/…, users/username/… (the e-mail's
 *   local part), users/…, channels/direct, posts,
 *   posts/…/patch, actions/dialogs/open, users/me/teams and their channels. A wrong bot token answers 401.
 * - the requests Mattermost sends to Rollcall: a button's action (with the context Rollcall put in it), a dialog
 *   submitted (with its state), the slash command (with its token in `Authorization: Token …`).
 */
export const MM_TOKEN = 'mmbottoken0000000000000001';
export const MM_COMMAND_TOKEN = 'mmcommandtoken000000000001';
export const MM_TEAM = 'teamacme000000000000000001';
export const MM_BOT = 'botuser0000000000000000001';

export interface MattermostStandIn {
  server: string;
  received: Received[];
  /** Calls of one method and path (ids as `:id`), in order: `calls('POST', '/posts')`. */
  calls(method: string, path: string): Received[];
  /** A Mattermost user with this e-mail; answers its 26-character id. */
  addUser(email: string): string;
  close(): Promise<void>;
}

/** The direct channel of the bot and a user, as the stand-in names it. */
export const dmChannel = (userId: string): string => idOf(`dm${userId}`);

const idOf = (seed: string) => `${seed.toLowerCase().replace(/[^a-z0-9]/g, '')}00000000000000000000000000`.slice(0, 26);

export async function startMattermostStandIn(): Promise<MattermostStandIn> {
  const users = new Map<string, string>();
  let post = 0;
  const pathOf = (url: string) => new URL(url, 'https://mm.test').pathname.replace(/^\/api\/v4/, '');
  const pattern = (path: string) => path.replace(/\/[a-z0-9]{26}(?=\/|$)/g, '/:id').replace(/\/email\/[^/]+/, '/email/:email');
  const rx = await startHttpsReceiver((req) => {
    if (req.headers.authorization !== `Bearer ${MM_TOKEN}`) return { status: 401, body: { id: 'api.context.session_expired.app_error', status_code: 401 } };
    const path = pathOf(req.url);
    const byId = (id: string) => [...users].find(([, u]) => u === id)?.[0];
    if (req.method === 'GET' && path === '/users/me') return { status: 200, body: { id: MM_BOT, username: 'rollcall', is_bot: true } };
    if (req.method === 'GET' && path.startsWith('/users/email/')) {
      const id = users.get(decodeURIComponent(path.slice('/users/email/'.length)).toLowerCase());
      return id ? { status: 200, body: { id, delete_at: 0 } } : { status: 404, body: { id: 'app.user.missing_account.const', status_code: 404 } };
    }
    if (req.method === 'GET' && path.startsWith('/users/username/')) {
      const name = decodeURIComponent(path.slice('/users/username/'.length)).toLowerCase();
      const id = [...users].find(([email]) => email.split('@')[0] === name)?.[1];
      return id ? { status: 200, body: { id, username: name } } : { status: 404, body: { status_code: 404 } };
    }
    if (req.method === 'GET' && path === '/users/me/teams') return { status: 200, body: [{ id: MM_TEAM, name: 'acme', display_name: 'Acme' }] };
    if (req.method === 'GET' && path === `/users/me/teams/${MM_TEAM}/channels`) {
      return { status: 200, body: [{ id: idOf('townsquare'), name: 'town-square', display_name: 'Town Square', type: 'O' }, { id: idOf('dmbot'), name: 'x__y', display_name: '', type: 'D' }] };
    }
    if (req.method === 'GET' && /^\/users\/[a-z0-9]{26}$/.test(path)) {
      const email = byId(path.slice(7));
      return email ? { status: 200, body: { id: path.slice(7), email } } : { status: 404, body: { status_code: 404 } };
    }
    if (req.method === 'POST' && path === '/channels/direct') return { status: 201, body: { id: idOf(`dm${(req.json as string[])[1]}`), type: 'D' } };
    if (req.method === 'POST' && path === '/posts') return { status: 201, body: { id: idOf(`post${++post}`), channel_id: req.json.channel_id } };
    if (req.method === 'PUT' && /^\/posts\/[a-z0-9]{26}\/patch$/.test(path)) return { status: 200, body: { id: path.split('/')[2], channel_id: 'x' } };
    if (req.method === 'POST' && path === '/actions/dialogs/open') return { status: 200, body: { status: 'OK' } };
    return { status: 404, body: { status_code: 404, message: `no ${req.method} ${path}` } };
  });
  return {
    server: rx.url,
    received: rx.received,
    calls: (method, path) => rx.received.filter((r) => r.method === method && pattern(pathOf(r.url)) === path),
    addUser(email) {
      const id = idOf(`u${email.split('@')[0]}`);
      users.set(email.toLowerCase(), id);
      return id;
    },
    close: () => rx.close(),
  };
}

/** A click on a button of a post: the action request with the button's context, as Mattermost sends it. */
export const actionBody = (user: string, context: unknown, options: { trigger?: string; team?: string } = {}): string =>
  JSON.stringify({
    user_id: user, user_name: 'someone', channel_id: idOf(`dm${user}`), channel_name: '', team_id: options.team ?? MM_TEAM, team_domain: 'acme',
    post_id: idOf('post1'), trigger_id: options.trigger ?? `trigger${Math.random().toString(36).slice(2)}`, type: '', data_source: '', context,
  });

/** A dialog submitted: its state (as Rollcall opened it) and the values by element name. */
export const dialogBody = (user: string, state: string, submission: Record<string, unknown>, options: { cancelled?: boolean } = {}): string =>
  JSON.stringify({ type: 'dialog_submission', callback_id: 'rollcall_answer', state, user_id: user, channel_id: idOf(`dm${user}`), team_id: MM_TEAM, submission, cancelled: options.cancelled ?? false });

/** The slash command, form-encoded, and its headers (the token as Mattermost sends it). */
export function commandRequest(user: string, text: string, options: { team?: string; token?: string } = {}) {
  const raw = new URLSearchParams({
    channel_id: idOf(`dm${user}`), channel_name: 'x', command: '/rollcall', response_url: 'https://mm.test/hooks/commands/x', team_domain: 'acme', team_id: options.team ?? MM_TEAM,
    text, token: options.token ?? MM_COMMAND_TOKEN, trigger_id: `trigger${Math.random().toString(36).slice(2)}`, user_id: user, user_name: 'someone',
  }).toString();
  return { raw, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Token ${options.token ?? MM_COMMAND_TOKEN}` } };
}

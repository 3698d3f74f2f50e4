import { Api, ClientError, EXIT } from './api.ts';
import type { CommandContext } from './context.ts';
import { removeSession, writeSession } from './session.ts';

interface OrganizationRef {
  id: string;
  uuid: string;
  name: string;
}
type Verification =
  | { token: string; expires_at: string; organization: OrganizationRef & { plan: string }; user: { uuid: string; email: string; full_name: string } }
  | { requires_organization_selection: true; organizations: OrganizationRef[] };

async function required(ctx: CommandContext, given: string | undefined, question: string, usage: string, secret = false): Promise<string> {
  if (given) return given;
  const answer = secret ? await ctx.terminal.askSecret(question) : await ctx.terminal.ask(question);
  if (!answer) throw new ClientError(EXIT.usage, usage);
  return answer;
}

/** Picks one of several organizations: `--organization` (uuid or name), or a numbered prompt. */
async function chooseOrganization(ctx: CommandContext, organizations: OrganizationRef[], wanted: string | undefined): Promise<string> {
  if (wanted) {
    const match = organizations.find((o) => o.uuid === wanted.toLowerCase() || o.name.toLowerCase() === wanted.toLowerCase());
    if (!match) throw new ClientError(EXIT.usage, `--organization: this address has no account in "${wanted}"; it has one in ${organizations.map((o) => o.name).join(', ')}.`);
    return match.uuid;
  }
  ctx.terminal.note('This address belongs to several organizations:');
  organizations.forEach((o, i) => ctx.terminal.note(`  ${i + 1}) ${o.name}`));
  for (;;) {
    const answer = await ctx.terminal.ask(`Which one? [1-${organizations.length}] `);
    if (answer === null) throw new ClientError(EXIT.usage, 'no organization chosen: give --organization.');
    const index = Number(answer) - 1;
    if (Number.isInteger(index) && organizations[index]) return organizations[index].uuid;
  }
}

/**
 * `rollcall login`: the e-mail (--email or a prompt), a code sent to it (or --code from an earlier request),
 * the organization when the address has several (--organization or a prompt); the session is kept for 30 days.
 */
export async function login(ctx: CommandContext, flags: { email?: string; code?: string; organization?: string }): Promise<void> {
  const api = ctx.anonymous();
  const email = await required(ctx, flags.email, 'E-mail: ', 'no e-mail address: give --email.');
  let code = flags.code;
  if (!code) {
    const sent = await ctx.terminal.spin('Sending a code', () => api.call<{ detail: string }>('POST', '/v1/cli/auth/request-code/', { email }));
    ctx.terminal.note(sent.detail);
    code = await required(ctx, undefined, 'Code from the e-mail: ', 'no code given: give --code.', true);
  }
  let organizationId: string | undefined;
  for (;;) {
    let answer: Verification;
    try {
      answer = await ctx.terminal.spin('Signing in', () =>
        api.call<Verification>('POST', '/v1/cli/auth/verify-code/', { email, code, ...(organizationId ? { organization_id: organizationId } : {}) }),
      );
    } catch (err) {
      // A mistyped code, at a prompt, can be typed again while it has tries left.
      const left = (err as ClientError).code === 'invalid_code' ? ((err as ClientError).body as { extra?: { attempts_left?: number } })?.extra?.attempts_left : undefined;
      if (!flags.code && left) {
        ctx.terminal.error((err as Error).message);
        code = await required(ctx, undefined, `Code from the e-mail (${left} ${left === 1 ? 'try' : 'tries'} left): `, 'no code given: give --code.', true);
        continue;
      }
      throw err;
    }
    if ('requires_organization_selection' in answer) {
      organizationId = await chooseOrganization(ctx, answer.organizations, flags.organization);
      continue;
    }
    writeSession({ api_url: ctx.apiUrl, token: answer.token, expires_at: answer.expires_at, user: answer.user, organization: answer.organization }, ctx.sessionFile);
    if (ctx.json) ctx.terminal.json({ api_url: ctx.apiUrl, expires_at: answer.expires_at, user: answer.user, organization: answer.organization, session_file: ctx.sessionFile });
    else ctx.terminal.print(`Signed in as ${ctx.terminal.style('bold', answer.user.full_name)} <${answer.user.email}> in ${answer.organization.name}, until ${answer.expires_at.slice(0, 10)}.`);
    return;
  }
}

/** `rollcall logout`: revokes the session's token on the server, then forgets it here. */
export async function logout(ctx: CommandContext): Promise<void> {
  const session = ctx.session;
  let revoked = false;
  if (session) {
    try {
      const api = new Api(session.api_url, { kind: 'bearer', value: session.token, from: ctx.sessionFile });
      await ctx.terminal.spin('Signing out', () => api.call('POST', '/v1/cli/auth/logout/'));
      revoked = true;
    } catch (err) {
      // A token that no longer works (expired, revoked) needs no revoking; anything else is worth saying.
      if ((err as ClientError).exit !== EXIT.unauthenticated) throw err;
    }
  }
  const removed = removeSession(ctx.sessionFile);
  if (ctx.json) return ctx.terminal.json({ signed_out: removed, revoked });
  if (removed) ctx.terminal.print('Signed out.');
  else ctx.terminal.print(process.env.ROLLCALL_API_KEY ? 'No session to end: ROLLCALL_API_KEY is an API key (revoke it with the API).' : 'Not signed in.');
}

interface PendingCheckin {
  followup_uuid: string;
  followup_name: string;
  date: string;
  template_questions: { question: string }[];
}

/** `rollcall status`: who the credential signs in as, and the check-ins waiting for an answer today. */
export async function status(ctx: CommandContext): Promise<void> {
  const api = ctx.api();
  const [auth, cli] = await ctx.terminal.spin('Checking', () =>
    Promise.all([
      api.call<{ user: { email: string; full_name: string }; organization: { name: string } }>('GET', '/v1/cli/auth/status/'),
      api.call<{ pending_checkins: PendingCheckin[] }>('GET', '/v1/cli/status/'),
    ]),
  );
  if (ctx.json) return ctx.terminal.json({ ...auth, credential: ctx.credential!.kind, pending_checkins: cli.pending_checkins });
  const how = ctx.credential!.kind === 'api_key' ? 'with ROLLCALL_API_KEY' : `session until ${ctx.session!.expires_at.slice(0, 10)}`;
  ctx.terminal.print(`Signed in as ${ctx.terminal.style('bold', auth.user.full_name)} <${auth.user.email}> in ${auth.organization.name} (${how}) at ${ctx.apiUrl}`);
  ctx.terminal.print();
  if (cli.pending_checkins.length === 0) return ctx.terminal.print('Nothing is waiting for your answer today.');
  ctx.terminal.print(ctx.terminal.style('bold', 'Waiting for your answer today:'));
  for (const c of cli.pending_checkins) {
    const count = c.template_questions.length;
    ctx.terminal.print(`  ${ctx.terminal.style('yellow', '•')} ${c.followup_name} (${count} question${count === 1 ? '' : 's'}, ${c.date})`);
  }
  ctx.terminal.print(`\nAnswer with: rollcall update --done "…" --doing "…" --blocked "…"`);
}

/** `rollcall me`: the current user (GET /v1/me/). */
export async function me(ctx: CommandContext): Promise<void> {
  const user = await ctx.terminal.spin('Asking', () =>
    ctx.api().call<{ full_name: string; email: string; role: string; organization_name: string; timezone: string; uuid: string }>('GET', '/v1/me/'),
  );
  if (ctx.json) return ctx.terminal.json(user);
  ctx.terminal.print(`${ctx.terminal.style('bold', user.full_name)} <${user.email}>`);
  ctx.terminal.print(`Role:          ${user.role}`);
  ctx.terminal.print(`Organization:  ${user.organization_name}`);
  ctx.terminal.print(`Time zone:     ${user.timezone}`);
  ctx.terminal.print(`User id:       ${user.uuid}`);
}

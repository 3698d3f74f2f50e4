import type { CommandContext } from './context.ts';

interface PendingCheckin {
  followup_uuid: string;
  followup_name: string;
  date: string;
  template_questions: { question: string }[];
}

interface AnswerLink {
  url: string;
  response_date: string;
  expires_at: string;
}

/**
 * `rollcall checkins today`: the check-ins still waiting for my answer today (GET /v1/cli/status/), each with a
 * fresh web answer link (POST /v1/checkins/{uuid}/answer-link/), the same page the prompt e-mail opens.
 */
export async function checkins(ctx: CommandContext): Promise<void> {
  const api = ctx.api();
  const pending = await ctx.terminal.spin('Checking', async () => {
    const { pending_checkins } = await api.call<{ pending_checkins: PendingCheckin[] }>('GET', '/v1/cli/status/');
    const links = await Promise.all(pending_checkins.map((c) => api.call<AnswerLink>('POST', `/v1/checkins/${c.followup_uuid}/answer-link/`)));
    return pending_checkins.map((c, i) => ({ ...c, answer_url: links[i].url, expires_at: links[i].expires_at }));
  });
  if (ctx.json) return ctx.terminal.json({ pending_checkins: pending });
  if (pending.length === 0) return ctx.terminal.print('Nothing is waiting for your answer today.');
  ctx.terminal.print(ctx.terminal.style('bold', 'Waiting for your answer today:'));
  for (const c of pending) {
    const count = c.template_questions.length;
    ctx.terminal.print(`  ${ctx.terminal.style('yellow', '•')} ${c.followup_name} (${count} question${count === 1 ? '' : 's'}, ${c.date})`);
    ctx.terminal.print(`    ${c.answer_url}`);
  }
  ctx.terminal.print('\nOpen a link to answer in the browser, or: rollcall update --done "…" --doing "…" --blocked "…"');
}

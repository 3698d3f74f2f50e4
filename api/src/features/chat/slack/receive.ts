import { command } from './commands.ts';
import { event } from './events.ts';
import { interaction } from './interactions.ts';
import type { SlackAnswer } from './interactions.ts';
import { verifyRequest } from './requests.ts';
import type { RequestKind, SlackDeps } from './requests.ts';

/**
 * A request to one of Slack's request URLs: verified first (requests.ts: timestamp, signature, workspace; any
 * refusal is an error and nothing else happens), then handled by its kind. What the request asks is done and
 * committed before the answer goes back (store first, then acknowledge); what Slack must be told afterwards
 * (the prompt message turned "Answered ✓", the next question, the App Home) goes through the delivery outbox.
 */
export async function receiveSlack(deps: SlackDeps, kind: RequestKind, raw: string, headers: Record<string, string | string[] | undefined>): Promise<SlackAnswer> {
  const request = await verifyRequest(deps, kind, raw, headers);
  if (kind === 'events') return event(deps, request);
  if (kind === 'interactions') return interaction(deps, request);
  return command(deps, request);
}

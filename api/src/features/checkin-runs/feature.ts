import type { Deps } from '../../http/deps.ts';
import type { Feature } from '../../http/feature.ts';
import { askDue } from './ask.ts';
import { answerRoutes } from './answer-routes.ts';
import { checkinReplyHandler } from './email-replies.ts';
import { remindDue } from './remind.ts';
import { reportDue } from './report.ts';
import { runRoutes } from './runs-routes.ts';
import { pruneAnswerTokens } from './tokens.ts';
import { pruneConversations } from './chat-conversation.ts';
import { alertForgottenBlockers } from './blocker-alerts.ts';

/** Every minute: the prompts now due (each person once a day), then the worker is woken. */
export async function sendDuePrompts(deps: Deps): Promise<number> {
  const sent = await askDue(deps.db, deps.config, deps.clock.now());
  if (sent) deps.delivery.kick();
  return sent;
}

/** Every minute: the reminders now due. */
export async function sendDueReminders(deps: Deps): Promise<number> {
  const sent = await remindDue(deps.db, deps.config, deps.clock.now());
  if (sent) deps.delivery.kick();
  return sent;
}

/** Every minute: the reports now due (team reports at their time; answers one by one). */
export async function sendDueReports(deps: Deps): Promise<number> {
  const sent = await reportDue(deps.db, deps.config, deps.clock.now());
  if (sent) deps.delivery.kick();
  return sent;
}

/** Every hour: blockers open past the check-in's blocker_alert_days, told once to its managers. */
export async function sendBlockerAlerts(deps: Deps): Promise<number> {
  const told = await alertForgottenBlockers(deps.db, deps.config, deps.clock.now());
  if (told) deps.delivery.kick();
  return told;
}

/**
 * Check-ins that run themselves: asking each participant at their time, reminders, answering on the web page
 * and by e-mail reply, the report, each day's run (GET /v1/checkins/{uuid}/runs/) and answer links.
 */
export const checkinRuns: Feature = {
  name: 'checkin-runs',
  routers: (deps, mw) => [answerRoutes(deps, mw), runRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  inbound: (deps) => ({
    'checkin-replies': checkinReplyHandler({ db: deps.db, config: deps.config, logger: deps.logger, clock: deps.clock, kick: () => deps.delivery.kick() }),
  }),
  jobs: [
    { name: 'checkin-prompts', schedule: '* * * * *', run: sendDuePrompts },
    { name: 'checkin-reminders', schedule: '* * * * *', run: sendDueReminders },
    { name: 'checkin-reports', schedule: '* * * * *', run: sendDueReports },
    { name: 'prune-checkin-answer-tokens', schedule: '29 * * * *', run: (deps) => pruneAnswerTokens(deps.db, deps.clock.now()) },
    { name: 'checkin-blocker-alerts', schedule: '7 * * * *', run: sendBlockerAlerts },
    { name: 'prune-checkin-chat-conversations', schedule: '31 * * * *', run: (deps) => pruneConversations(deps.db, deps.clock.now()) },
  ],
};

import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentBoard } from '../boards/presenter.ts';
import { activityCursorSchema, briefingSchema, notificationPrefsSchema } from './schema.ts';
import { chatAccess } from '../channels/service.ts';
import {
  chatDestination, getActivityCursor, getBriefing, getNotificationPrefs, previewBriefing, recentBoards, saveBriefing, saveNotificationPrefs, sendBriefingTest, setActivityCursor,
  taskCounts, visitBoard,
} from './service.ts';

const cursor = { type: 'object', properties: { last_seen_at: { type: ['string', 'null'], format: 'date-time' } } };

/** The person's own doors (person-only: agent and organization keys answer 403 insufficient_scope). */
export function meRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: me');
  const person = true;
  r.read({ path: '/v1/plan/me/activity-cursor/', person, summary: 'How far you have read the activity feed (null: never)', response: cursor }, (call) => getActivityCursor(call));
  r.write({ method: 'put', path: '/v1/plan/me/activity-cursor/', person, scope: 'tasks:read', body: activityCursorSchema, summary: 'Mark the activity feed read up to a moment (not in the future)', response: cursor }, (call) =>
    setActivityCursor(call, call.body.last_seen_at),
  );
  r.write(
    { method: 'post', path: '/v1/plan/boards/:board/visit/', person, scope: 'tasks:read', summary: 'Record that you opened a board (it leads your recents)', response: { type: 'object', properties: { board: { type: 'string' }, visited_at: { type: 'string' } } } },
    (call) => visitBoard(call, call.params.board),
  );
  r.read({ path: '/v1/plan/me/recents/', person, summary: 'The boards you opened last (at most 10), newest first', response: 'PlanRecents' }, async (call) => {
    const rows = await recentBoards(call);
    return { count: rows.length, results: rows.map(({ board, visited_at }) => ({ ...presentBoard(board), board: board.uuid, visited_at })) };
  });
  r.read({ path: '/v1/plan/me/tasks/counts/', person, summary: 'Your open tasks counted: overdue, due today, due this week, without a due date, in progress', response: 'PlanTaskCounts' }, (call) =>
    taskCounts(call),
  );
  r.read({ path: '/v1/plan/me/briefing/', person, summary: 'Your daily briefing\'s settings (is_default: nothing saved yet)', response: 'PlanBriefing' }, (call) => getBriefing(call));
  r.write({ method: 'put', path: '/v1/plan/me/briefing/', person, scope: 'tasks:read', body: briefingSchema, summary: 'Change your daily briefing (only the fields sent)', response: 'PlanBriefing' }, (call) =>
    saveBriefing(call, call.body),
  );
  r.read({ path: '/v1/plan/me/briefing/preview/', person, summary: 'Your briefing as it would be sent now (nothing is sent)', response: 'PlanBriefingDocument' }, (call) => previewBriefing(call));
  r.write(
    { method: 'post', path: '/v1/plan/me/briefing/send-test/', person, scope: 'tasks:read', destructive: true, summary: 'E-mail your briefing to yourself now; ?dry_run=true builds it and sends nothing', response: { type: 'object', properties: { sent_to: { type: 'string' }, briefing: { $ref: '#/components/schemas/PlanBriefingDocument' } } } },
    (call) => sendBriefingTest(call),
  );
  r.read({ path: '/v1/plan/me/notifications/', person, summary: 'The notification kinds that reach you, and whether you get each', response: 'PlanNotificationPrefs' }, (call) => getNotificationPrefs(call));
  r.write(
    {
      method: 'put', path: '/v1/plan/me/notifications/', person, scope: 'tasks:read', body: notificationPrefsSchema, response: 'PlanNotificationPrefs',
      summary: 'Change your notifications: kinds on or off, by chat or e-mail, and where chat goes (your direct messages or a public channel)',
      prepare: (call) => chatDestination(call, chatAccess(call.deps), call.body.destination),
    },
    (call) => saveNotificationPrefs(call, call.body, call.prepared),
  );
}

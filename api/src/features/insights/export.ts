import type { Executor } from '../../db/connection.ts';
import { bool, readJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { insightsReadBy } from '../../auth/policy.ts';
import type { ResponseRow } from '../../db/tables.ts';
import { getVisibleCheckin, questionsOf } from '../checkins/repository.ts';
import { withParts } from '../checkins/response-parts.ts';
import type { Answer } from '../checkins/response-parts.ts';
import { fullName } from '../users/repository.ts';
import { csvLine } from './csv.ts';
import type { Cell } from './csv.ts';
import { periodOf } from './service.ts';
import type { PeriodInput } from './service.ts';

/** Responses are read and written out this many at a time. */
const BATCH = 1000;

export interface AnswersExport {
  filename: string;
  csv: string;
}

/**
 * GET /v1/checkins/{uuid}/responses/export/: the answers of a period as CSV, one line per person and day, oldest
 * first: the day, the person (on an anonymous check-in, only the caller's own lines are named), whether the day
 * counts as answered and signalled a blocker, one column per current question (by its short title), and when the
 * answer was first and last saved. Admins and managers export everyone's; anyone else their own (insightsReadBy).
 */
export async function exportAnswers(db: Executor, actor: Actor, checkinUuid: string, input: PeriodInput, now: Date): Promise<AnswersExport> {
  const checkin = await getVisibleCheckin(db, actor, checkinUuid);
  const period = periodOf(input, checkin.timezone, now);
  const questions = await questionsOf(db, checkin.uuid);
  const anonymous = bool(checkin.is_anonymous);
  const own = insightsReadBy(actor) === 'own';
  const lines = [csvLine(['date', 'person', 'answered', 'blocker', ...questions.map((q) => q.short_question || q.question), 'first_saved_at', 'last_saved_at'])];
  type Row = ResponseRow & { first_name: string; last_name: string; email: string };
  for (let offset = 0; ; offset += BATCH) {
    const query = db('checkin_responses as r')
      .join('users as u', 'u.uuid', 'r.user_uuid')
      .where('r.checkin_uuid', checkin.uuid)
      .andWhere('r.response_date', '>=', period.from)
      .andWhere('r.response_date', '<=', period.to)
      .orderBy('r.response_date')
      .orderBy('r.uuid')
      .limit(BATCH)
      .offset(offset)
      .select('r.*', 'u.first_name', 'u.last_name', 'u.email');
    if (own) query.andWhere('r.user_uuid', actor.user.uuid);
    const rows = await withParts(db, (await query) as Row[]);
    for (const row of rows) {
      const answers = new Map(readJson<Answer[]>(row.answers, []).map((a) => [a.uuid, a.response]));
      const person = anonymous && row.user_uuid !== actor.user.uuid ? 'Anonymous' : fullName(row);
      const cells: Cell[] = [row.response_date, person, bool(row.response_completed), bool(row.has_issue), ...questions.map((q) => answers.get(q.uuid)), row.created_at, row.updated_at];
      lines.push(csvLine(cells));
    }
    if (rows.length < BATCH) break;
  }
  const slug = checkin.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'checkin';
  return { filename: `${slug}-${period.from}-${period.to}.csv`, csv: lines.join('') };
}

import type { Executor } from '../../../db/connection.ts';
import type { ReportKind } from '../../../db/tables.ts';
import { localDate } from '../../../lib/dates.ts';
import { fullName } from '../../users/repository.ts';
import type { RouteScope } from '../notifications/routing.ts';

/**
 * What a scheduled report says, per board (with its project): what was done in the period, what is in
 * progress, and what is blocked (a live task that a task not yet done or canceled `blocks`). It covers the boards
 * everyone in the organization sees: the scope's boards and the boards of its projects, or all of them.
 */
export interface ReportTask {
  key: string;
  title: string;
  owner: string | null;
  blocked_by?: string[];
}

export interface BoardReport {
  board: { uuid: string; key: string; name: string };
  project: { uuid: string; name: string } | null;
  done: ReportTask[];
  in_progress: ReportTask[];
  blocked: ReportTask[];
}

export interface Report {
  title: string;
  period: { from: string; to: string };
  boards: BoardReport[];
  text: string;
}

const TITLES: Record<ReportKind, string> = { daily: 'Daily report', week_start: 'The week ahead', week_end: 'The week in review' };
/** Tasks named per section; the rest are counted. */
const LISTED = 20;

interface TaskColumns {
  uuid: string;
  board_uuid: string;
  number: number;
  title: string;
  owner_uuid: string | null;
  completed_at?: string | null;
}

async function boardsOf(db: Executor, organizationUuid: string, scope: RouteScope | null) {
  const query = db('plan_boards').where({ organization_uuid: organizationUuid, visibility: 'org' }).whereNull('archived_at');
  if (scope) query.andWhere((q) => q.whereIn('uuid', scope.boards ?? []).orWhereIn('project_uuid', scope.projects ?? []));
  return (await query.orderBy([{ column: 'name' }, { column: 'uuid' }]).select('uuid', 'key', 'name', 'project_uuid')) as { uuid: string; key: string; name: string; project_uuid: string | null }[];
}

export async function buildReport(
  db: Executor,
  report: { organizationUuid: string; name: string; kind: ReportKind; timezone: string; scope: RouteScope | null; from: Date },
  now: Date,
): Promise<Report> {
  const boards = await boardsOf(db, report.organizationUuid, report.scope);
  const boardUuids = boards.map((b) => b.uuid);
  const states: { uuid: string; category: string }[] = boardUuids.length ? await db('plan_states').whereIn('board_uuid', boardUuids).select('uuid', 'category') : [];
  const inCategory = (...categories: string[]) => states.filter((s) => categories.includes(s.category)).map((s) => s.uuid);
  const columns = ['uuid', 'board_uuid', 'number', 'title', 'owner_uuid'];

  const done: TaskColumns[] = inCategory('done').length
    ? await db('plan_tasks').whereIn('state_uuid', inCategory('done')).where('completed_at', '>=', report.from.toISOString()).where('completed_at', '<=', now.toISOString()).orderBy('completed_at').select([...columns, 'completed_at'])
    : [];
  const inProgress: TaskColumns[] = inCategory('in_progress').length
    ? await db('plan_tasks').whereIn('state_uuid', inCategory('in_progress')).whereNull('archived_at').orderBy([{ column: 'board_uuid' }, { column: 'rank' }]).select(columns)
    : [];
  const blockers = new Map<string, string[]>();
  let blocked: TaskColumns[] = [];
  const open = inCategory('backlog', 'todo', 'in_progress');
  if (open.length) {
    const rows: (TaskColumns & { blocker_key: string })[] = await db('plan_task_relations as r')
      .join('plan_tasks as t', 't.uuid', 'r.target_task_uuid')
      .join('plan_tasks as s', 's.uuid', 'r.source_task_uuid')
      .join('plan_states as ss', 'ss.uuid', 's.state_uuid')
      .join('plan_boards as sb', 'sb.uuid', 's.board_uuid')
      .where('r.relation_type', 'blocks')
      .whereIn('t.state_uuid', open)
      .whereNull('t.archived_at')
      .whereNull('s.archived_at')
      .whereNotIn('ss.category', ['done', 'canceled'])
      .orderBy([{ column: 't.board_uuid' }, { column: 't.number' }])
      .select('t.uuid', 't.board_uuid', 't.number', 't.title', 't.owner_uuid', db.raw(`sb.key || '-' || s.number as blocker_key`));
    for (const row of rows) {
      if (!blockers.has(row.uuid)) blocked.push(row);
      blockers.set(row.uuid, [...(blockers.get(row.uuid) ?? []), row.blocker_key]);
    }
  } else blocked = [];

  const ownerUuids = [...new Set([...done, ...inProgress, ...blocked].map((t) => t.owner_uuid).filter((u): u is string => u !== null))];
  const owners = new Map<string, string>();
  for (let i = 0; i < ownerUuids.length; i += 500) {
    for (const p of await db('users').whereIn('uuid', ownerUuids.slice(i, i + 500)).select('uuid', 'first_name', 'last_name', 'email')) owners.set(p.uuid, fullName(p));
  }
  const projectUuids = [...new Set(boards.map((b) => b.project_uuid).filter((u): u is string => u !== null))];
  const projects = new Map<string, string>(projectUuids.length ? (await db('plan_projects').whereIn('uuid', projectUuids).select('uuid', 'name')).map((p: { uuid: string; name: string }) => [p.uuid, p.name]) : []);

  const keyOf = new Map(boards.map((b) => [b.uuid, b.key]));
  const item = (t: TaskColumns): ReportTask => ({
    key: `${keyOf.get(t.board_uuid)}-${t.number}`,
    title: t.title,
    owner: t.owner_uuid ? (owners.get(t.owner_uuid) ?? null) : null,
    ...(blockers.has(t.uuid) ? { blocked_by: blockers.get(t.uuid) } : {}),
  });
  const sections: BoardReport[] = boards.map((b) => ({
    board: { uuid: b.uuid, key: b.key, name: b.name },
    project: b.project_uuid ? { uuid: b.project_uuid, name: projects.get(b.project_uuid) ?? '' } : null,
    done: done.filter((t) => t.board_uuid === b.uuid).map(item),
    in_progress: inProgress.filter((t) => t.board_uuid === b.uuid).map(item),
    blocked: blocked.filter((t) => t.board_uuid === b.uuid).map(item),
  }));
  const title = `${TITLES[report.kind]}: ${report.name} (${localDate(now, report.timezone)})`;
  return { title, period: { from: report.from.toISOString(), to: now.toISOString() }, boards: sections, text: reportText(title, sections) };
}

function listed(heading: string, tasks: ReportTask[]): string[] {
  if (tasks.length === 0) return [`${heading}: none`];
  const lines = tasks.slice(0, LISTED).map((t) => `  • ${t.key} ${t.title}${t.owner ? ` (${t.owner})` : ''}${t.blocked_by ? ` blocked by ${t.blocked_by.join(', ')}` : ''}`);
  if (tasks.length > LISTED) lines.push(`  … and ${tasks.length - LISTED} more`);
  return [`${heading} (${tasks.length}):`, ...lines];
}

/** The report as plain text, for chat and e-mail alike. */
function reportText(title: string, sections: BoardReport[]): string {
  if (sections.length === 0) return `${title}\n\nNo board everyone in the organization sees is in this report's scope.`;
  const parts = sections.map((s) =>
    [`${s.board.key} · ${s.board.name}${s.project ? ` (project ${s.project.name})` : ''}`, ...listed('Done', s.done), ...listed('In progress', s.in_progress), ...listed('Blocked', s.blocked)].join('\n'),
  );
  return [title, ...parts].join('\n\n');
}

import { ValidationFailed, conflict, notFound } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { managedBoard, managedProject, visibleBoard, visibleProject } from '../frame/access.ts';
import { can } from '../../../auth/policy.ts';
import { lockStreamOf } from '../frame/locks.ts';
import type { MemberRole } from '../../../db/tables.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { containsPattern } from '../frame/lists.ts';
import { pageOf } from '../frame/lists.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { presentMember } from './presenter.ts';
import type { MemberView } from './presenter.ts';

/**
 * Members of boards and projects (one module: the two behave the same). Members of a `members` board or project
 * are the people who see it; on either visibility, members with role `manager` manage it.
 */
export type Container = 'board' | 'project';

const TABLE = { board: 'plan_board_members', project: 'plan_project_members' } as const;
const COLUMN = { board: 'board_uuid', project: 'project_uuid' } as const;
const KIND = { board: 'board_member', project: 'project_member' } as const;

interface ContainerRow {
  uuid: string;
  visibility: string;
  project_uuid?: string | null;
}

const visibleContainer = (r: PlanRead, container: Container, uuid: string) =>
  container === 'board' ? visibleBoard<ContainerRow>(r.db, r.actor, uuid) : visibleProject<ContainerRow>(r.db, r.actor, uuid);
const managedContainer = (w: PlanWrite, container: Container, uuid: string) =>
  container === 'board' ? managedBoard<ContainerRow>(w.db, w.actor, uuid) : managedProject<ContainerRow>(w.db, w.actor, uuid);

/** The container's change stream (frame/locks.ts), locked before its members change. */
const lockStream = (w: PlanWrite, container: Container, uuid: string) => lockStreamOf(w, { board: container === 'board' ? uuid : null });

const MEMBER_COLUMNS = ['u.uuid', 'u.first_name', 'u.last_name', 'u.email', 'u.is_active', 'm.uuid as membership_uuid', 'm.role', 'm.created_at as membership_created_at'];

function membersQuery(r: PlanRead, container: Container, uuid: string) {
  return r.db(`${TABLE[container]} as m`).join('users as u', 'u.uuid', 'm.user_uuid').where(`m.${COLUMN[container]}`, uuid);
}

export async function listMembers(r: PlanRead, container: Container, uuid: string, page: PageRequest): Promise<{ count: number; rows: MemberView[] }> {
  await visibleContainer(r, container, uuid);
  return pageOf(() => membersQuery(r, container, uuid), page, (query) => query.select(MEMBER_COLUMNS).orderBy([{ column: 'm.created_at' }, { column: 'm.uuid' }]));
}

/** Every member of a container the caller already sees, oldest membership first (the board snapshot). */
export async function allMembers(r: PlanRead, container: Container, uuid: string): Promise<MemberView[]> {
  return membersQuery(r, container, uuid).select(MEMBER_COLUMNS).orderBy([{ column: 'm.created_at' }, { column: 'm.uuid' }]);
}

async function memberView(r: PlanRead, container: Container, uuid: string, userUuid: string): Promise<MemberView | null> {
  return (await membersQuery(r, container, uuid).andWhere('m.user_uuid', userUuid).first(MEMBER_COLUMNS)) ?? null;
}

/** Someone who may use Plan in this organization: an active member who is not a guest. */
async function assertPlanUser(w: PlanWrite, userUuid: string): Promise<void> {
  const user = await w.db('users').where({ uuid: userUuid, organization_uuid: w.actor.organization.uuid }).first('role', 'is_active');
  if (!user || !(user.is_active === true || user.is_active === 1)) throw new ValidationFailed({ user: ['No active member of your organization with this id.'] });
  if (user.role === 'guest') throw new ValidationFailed({ user: ['Guest accounts cannot use Plan.'] });
}

async function recordMember(w: PlanWrite, container: Container, containerRow: ContainerRow, view: MemberView, change: 'created' | 'updated' | 'deleted', fields: string[] = []): Promise<void> {
  await w.changes.record({
    kind: KIND[container],
    uuid: view.membership_uuid,
    change,
    board: container === 'board' ? containerRow.uuid : null,
    project: container === 'project' ? containerRow.uuid : (containerRow.project_uuid ?? null),
    fields,
    snapshot: change === 'deleted' ? null : presentMember(view),
  });
}

/** Adds a member (used by the creation of a board or project, whose creator becomes its first manager). */
export async function addMember(w: PlanWrite, container: Container, uuid: string, userUuid: string, role: MemberRole): Promise<MemberView> {
  await w.db(TABLE[container]).insert({ uuid: uuidv7(w.now.getTime()), [COLUMN[container]]: uuid, user_uuid: userUuid, role, created_at: w.now.toISOString() });
  const view = (await memberView(w, container, uuid, userUuid))!;
  const row = (await w.db(container === 'board' ? 'plan_boards' : 'plan_projects').where({ uuid }).first()) as ContainerRow;
  await recordMember(w, container, row, view, 'created');
  return view;
}

/** POST …/members/: adds someone, or changes the role of someone already a member (then `created` is false). */
export async function putMember(w: PlanWrite, container: Container, uuid: string, userUuid: string, role: MemberRole | undefined): Promise<{ member: MemberView; created: boolean }> {
  await lockStream(w, container, uuid);
  const { row } = await managedContainer(w, container, uuid);
  await assertPlanUser(w, userUuid);
  const existing = await memberView(w, container, uuid, userUuid);
  if (!existing) return { member: await addMember(w, container, row.uuid, userUuid, role ?? 'member'), created: true };
  if (role === undefined || role === existing.role) return { member: existing, created: false };
  return { member: await changeRole(w, container, row, existing, role), created: false };
}

async function changeRole(w: PlanWrite, container: Container, row: ContainerRow, existing: MemberView, role: MemberRole): Promise<MemberView> {
  await w.db(TABLE[container]).where({ uuid: existing.membership_uuid }).update({ role });
  const view = { ...existing, role };
  await recordMember(w, container, row, view, 'updated', ['role']);
  return view;
}

export async function updateMember(w: PlanWrite, container: Container, uuid: string, userUuid: string, role: MemberRole | undefined): Promise<MemberView> {
  await lockStream(w, container, uuid);
  const { row } = await managedContainer(w, container, uuid);
  const existing = await memberView(w, container, uuid, userUuid);
  if (!existing) throw notFound();
  return role === undefined || existing.role === role ? existing : changeRole(w, container, row, existing, role);
}

/**
 * Removes a member: managers and admins remove anyone, everyone may remove themselves. The last member of a
 * members-only board or project stays (409 last_grant_cannot_be_removed): without one, only admins would see it.
 */
export async function removeMember(w: PlanWrite, container: Container, uuid: string, userUuid: string) {
  await lockStream(w, container, uuid);
  const self = userUuid === w.actor.user.uuid;
  const { row } = self && !can(w.actor, 'plan.manage_all') ? await visibleContainer(w, container, uuid) : await managedContainer(w, container, uuid);
  const existing = await memberView(w, container, uuid, userUuid);
  if (!existing) throw notFound();
  if (row.visibility === 'members') {
    const [{ count }] = await w.db(TABLE[container]).where({ [COLUMN[container]]: uuid }).count({ count: '*' });
    if (Number(count) <= 1) {
      throw conflict('last_grant_cannot_be_removed', `This is the last member of a members-only ${container}; add someone else first, or make it visible to the organization.`);
    }
  }
  await w.db(TABLE[container]).where({ uuid: existing.membership_uuid }).delete();
  await recordMember(w, container, row, existing, 'deleted');
  return { deleted: { object_kind: KIND[container], uuid: existing.membership_uuid, user: userUuid } };
}

/**
 * People who can own or take part in the container's tasks: those who can see it. An org-visible one: every
 * active member of the organization who may use Plan; a members-only one: its members and the admins.
 */
export async function listMentionables(r: PlanRead, container: Container, uuid: string, search: string | undefined, page: PageRequest) {
  const { row } = await visibleContainer(r, container, uuid);
  const base = () => {
    const query = r.db('users as u').where('u.organization_uuid', r.actor.organization.uuid).andWhere('u.is_active', true).andWhereNot('u.role', 'guest');
    if (row.visibility === 'members') {
      query.andWhere((who) => {
        who.where('u.role', 'admin').orWhereExists(r.db(`${TABLE[container]} as m`).select(r.db.raw('1')).whereRaw('m.user_uuid = u.uuid').andWhere(`m.${COLUMN[container]}`, uuid));
      });
    }
    if (search) {
      const pattern = containsPattern(search);
      query.andWhere((match) => {
        match.whereRaw("lower(u.first_name || ' ' || u.last_name) like ? escape '\\'", [pattern]).orWhereRaw("lower(u.email) like ? escape '\\'", [pattern]);
      });
    }
    return query;
  };
  // By the name people see: their full name, or their e-mail when they have none.
  return pageOf<PersonColumns>(base, page, (query) =>
    query.select('u.uuid', 'u.first_name', 'u.last_name', 'u.email').orderByRaw("lower(case when u.first_name = '' and u.last_name = '' then u.email else u.first_name || ' ' || u.last_name end), u.uuid"),
  );
}

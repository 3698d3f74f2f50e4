import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { recordEvent } from '../webhooks/events.ts';
import { assertCan, can } from '../../auth/policy.ts';
import { likePattern } from '../../db/sql.ts';
import { fullName } from '../users/repository.ts';
import type { AddMembersInput, CreateTeamInput, UpdateTeamInput } from './schema.ts';
import type { TeamRow, UserRow } from '../../db/tables.ts';

export interface TeamView extends TeamRow {
  members_count: number | string;
}
export type TeamMemberView = Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>;

/** Admins and managers see every team; members and guests the teams they belong to (CONTRACT §3). */
function visibleTeams(db: Executor, actor: Actor) {
  const query = db('teams as t').where('t.organization_uuid', actor.organization.uuid);
  if (!can(actor, 'teams.see_all')) {
    query.whereIn('t.uuid', db('team_members').select('team_uuid').where('user_uuid', actor.user.uuid));
  }
  return query;
}

const membersCount = (db: Executor) =>
  db('team_members as tm').count('*').whereRaw('?? = ??', ['tm.team_uuid', 't.uuid']).as('members_count');

export interface TeamFilters {
  search?: string;
  active?: boolean;
}

export async function listTeams(db: Executor, actor: Actor, filters: TeamFilters, page: PageRequest): Promise<{ count: number; rows: TeamView[] }> {
  const filtered = () => {
    const query = visibleTeams(db, actor);
    if (filters.search) query.andWhereRaw("lower(t.name) like ? escape '\\'", [likePattern(filters.search)]);
    if (filters.active !== undefined) query.andWhere('t.active', filters.active);
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows = await filtered().select('t.*', membersCount(db)).orderBy('t.name').orderBy('t.uuid').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}

export async function getTeam(db: Executor, actor: Actor, uuid: string): Promise<TeamView> {
  const row = await visibleTeams(db, actor).andWhere('t.uuid', uuid).first('t.*', membersCount(db));
  if (!row) throw notFound();
  return row;
}

/** A team the caller can see and manage: 404 when invisible, then 403 for members. */
async function manageableTeam(db: Executor, actor: Actor, uuid: string): Promise<TeamView> {
  const team = await getTeam(db, actor, uuid);
  assertCan(actor, 'teams.manage');
  return team;
}

/** One default team per organization: setting it clears the flag elsewhere. */
async function clearOtherDefaults(db: Executor, organizationUuid: string, keep: string): Promise<void> {
  await db('teams').where({ organization_uuid: organizationUuid, is_default: true }).whereNot({ uuid: keep }).update({ is_default: false });
}

export async function createTeam(db: Executor, actor: Actor, input: CreateTeamInput, now: Date): Promise<TeamView> {
  return db.transaction(async (trx) => {
    assertCan(actor, 'teams.manage');
    const uuid = uuidv7(now.getTime());
    await trx('teams').insert({
      uuid,
      organization_uuid: actor.organization.uuid,
      name: input.name,
      active: input.active ?? true,
      is_default: input.is_default ?? false,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    if (input.is_default) await clearOtherDefaults(trx, actor.organization.uuid, uuid);
    return getTeam(trx, actor, uuid);
  });
}

export async function updateTeam(db: Executor, actor: Actor, uuid: string, input: UpdateTeamInput, now: Date): Promise<TeamView> {
  return db.transaction(async (trx) => {
    await manageableTeam(trx, actor, uuid);
    const changes: Record<string, unknown> = { updated_at: now.toISOString() };
    for (const field of ['name', 'is_default', 'active'] as const) if (input[field] !== undefined) changes[field] = input[field];
    await trx('teams').where({ uuid }).update(changes);
    if (input.is_default) await clearOtherDefaults(trx, actor.organization.uuid, uuid);
    return getTeam(trx, actor, uuid);
  });
}

export async function deleteTeam(db: Executor, actor: Actor, uuid: string): Promise<void> {
  await manageableTeam(db, actor, uuid);
  await db('teams').where({ uuid }).delete();
}

export async function teamMembers(db: Executor, actor: Actor, uuid: string): Promise<TeamMemberView[]> {
  await getTeam(db, actor, uuid);
  return db('team_members as tm')
    .join('users as u', 'u.uuid', 'tm.user_uuid')
    .where('tm.team_uuid', uuid)
    .orderBy('u.first_name')
    .orderBy('u.last_name')
    .orderBy('u.uuid')
    .select('u.uuid', 'u.first_name', 'u.last_name', 'u.email');
}

const teamEventPayload = (team: TeamRow, user: UserRow, actor: Actor) => ({
  team: { uuid: team.uuid, name: team.name },
  user: { uuid: user.uuid, full_name: fullName(user), email: user.email },
  by: { uuid: actor.user.uuid, full_name: fullName(actor.user) },
});

/** Adds users of the organization (idempotent); unknown ids answer the field map naming them. */
export async function addMembers(db: Executor, actor: Actor, uuid: string, input: AddMembersInput, now: Date): Promise<TeamView> {
  return db.transaction(async (trx) => {
    const team = await manageableTeam(trx, actor, uuid);
    const wanted = [...new Set(input.members.map((m) => m.uuid))];
    const users: UserRow[] = await trx('users').where('organization_uuid', actor.organization.uuid).whereIn('uuid', wanted);
    const found = new Set(users.map((u) => u.uuid));
    const problems: Record<string, string[]> = {};
    input.members.forEach((m, i) => {
      if (!found.has(m.uuid)) problems[`members.${i}.uuid`] = ['No user with this id in your organization.'];
    });
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    const existing = new Set((await trx('team_members').where('team_uuid', uuid).whereIn('user_uuid', wanted).select('user_uuid')).map((r: { user_uuid: string }) => r.user_uuid));
    for (const user of users) {
      if (existing.has(user.uuid)) continue;
      await trx('team_members').insert({ team_uuid: uuid, user_uuid: user.uuid, created_at: now.toISOString() });
      await recordEvent(trx, { organizationUuid: actor.organization.uuid, event: 'organization.team_user_added', payload: teamEventPayload(team, user, actor) }, now);
    }
    return getTeam(trx, actor, uuid);
  });
}

export async function removeMember(db: Executor, actor: Actor, uuid: string, userUuid: string, now: Date): Promise<void> {
  return db.transaction(async (trx) => {
    const team = await manageableTeam(trx, actor, uuid);
    const user: UserRow | undefined = await trx('team_members as tm').join('users as u', 'u.uuid', 'tm.user_uuid').where({ 'tm.team_uuid': uuid, 'tm.user_uuid': userUuid }).first('u.*');
    if (!user) throw notFound();
    await trx('team_members').where({ team_uuid: uuid, user_uuid: userUuid }).delete();
    await recordEvent(trx, { organizationUuid: actor.organization.uuid, event: 'organization.team_user_removed', payload: teamEventPayload(team, user, actor) }, now);
  });
}

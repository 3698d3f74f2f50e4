import type { Executor } from '../../db/connection.ts';
import { organizationConfig } from '../../db/organization-config.ts';
import type { OrganizationConfig } from '../../db/organization-config.ts';
import type { GroupCommit } from '../../db/group-commit.ts';
import { ApiError, ValidationFailed, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { localDate } from '../../lib/dates.ts';
import { platformName } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { recordEvent } from '../webhooks/events.ts';
import { likePattern } from '../../db/sql.ts';
import { fullName } from '../users/repository.ts';
import { PERSON_COLUMNS, involving, isAnonymous, viewsOf, visibleKudos } from './repository.ts';
import type { CompanyValueRow, KudosRow, KudosView, PersonRef } from './repository.ts';
import type { GiveKudosInput, KudosSettingsInput } from './schema.ts';

export const DEFAULT_DAILY_LIMIT = 10;

export interface KudosSettings {
  dailyLimit: number;
  chatAnnouncements: boolean;
  chatChannel: string | null;
}

/** The organization's kudos settings, kept under its settings version (db/organization-config.ts): every kudos reads them. */
export async function kudosSettings(db: Executor, organizationUuid: string, config?: OrganizationConfig): Promise<KudosSettings> {
  const settings = await (config ?? (await organizationConfig(db, organizationUuid))).part('kudos:settings', async () => {
    const row = await db('kudos_settings').where({ organization_uuid: organizationUuid }).first();
    return {
      dailyLimit: row?.daily_limit ?? DEFAULT_DAILY_LIMIT,
      chatAnnouncements: row ? row.chat_announcements === true || row.chat_announcements === 1 : true,
      chatChannel: row?.chat_channel ?? null,
    };
  });
  return { ...settings };
}

/** Kudos `giverUuid` has given on `day` (the organization's local day). */
export async function givenOn(db: Executor, giverUuid: string, day: string): Promise<number> {
  const row = await db('kudos_daily_counts').where({ giver_uuid: giverUuid, day }).first('count');
  return row ? Number(row.count) : 0;
}

export const today = (actor: Actor, now: Date) => localDate(now, actor.organization.timezone || 'UTC');

/** The organization's settings and how many kudos the caller gave today. */
export async function settingsFor(db: Executor, actor: Actor, now: Date): Promise<{ settings: KudosSettings; givenToday: number }> {
  return { settings: await kudosSettings(db, actor.organization.uuid), givenToday: await givenOn(db, actor.user.uuid, today(actor, now)) };
}

export async function updateKudosSettings(db: Executor, actor: Actor, input: KudosSettingsInput, now: Date): Promise<{ settings: KudosSettings; givenToday: number }> {
  const current = await kudosSettings(db, actor.organization.uuid);
  const row = {
    daily_limit: input.daily_limit ?? current.dailyLimit,
    chat_announcements: input.chat_announcements ?? current.chatAnnouncements,
    chat_channel: input.chat_channel !== undefined ? input.chat_channel : current.chatChannel,
    updated_at: now.toISOString(),
  };
  await db('kudos_settings').insert({ organization_uuid: actor.organization.uuid, ...row }).onConflict('organization_uuid').merge(row);
  return settingsFor(db, actor, now);
}

interface Resolved {
  receivers: PersonRef[];
  teams: { uuid: string; name: string }[];
}

/**
 * Resolves `receivers` (users or teams), `users_receivers` and `teams_receivers` in the caller's organization.
 * Teams expand to their active members; the giver is left out of a team. Naming yourself is `self_kudos`.
 */
async function resolveReceivers(db: Executor, actor: Actor, input: GiveKudosInput): Promise<Resolved> {
  const mixed = input.receivers ?? [];
  const userIds = input.users_receivers ?? [];
  const teamIds = input.teams_receivers ?? [];
  if (mixed.length + userIds.length + teamIds.length === 0) {
    throw new ValidationFailed({ receivers: ['Name at least one receiver: a user or team uuid.'] });
  }
  const org = actor.organization.uuid;
  const maybeUsers = [...new Set([...mixed, ...userIds])];
  const maybeTeams = [...new Set([...mixed, ...teamIds])];
  const users: (PersonRef & { is_active: boolean | number })[] = maybeUsers.length
    ? await db('users').where('organization_uuid', org).whereIn('uuid', maybeUsers).select(...PERSON_COLUMNS, 'is_active')
    : [];
  const teams: { uuid: string; name: string; active: boolean | number }[] = maybeTeams.length
    ? await db('teams').where('organization_uuid', org).whereIn('uuid', maybeTeams).select('uuid', 'name', 'active')
    : [];
  const userById = new Map(users.map((u) => [u.uuid, u]));
  const teamById = new Map(teams.map((t) => [t.uuid, t]));

  const problems: Record<string, string[]> = {};
  const namedUsers = new Set<string>();
  const namedTeams = new Set<string>();
  mixed.forEach((id, i) => {
    if (userById.has(id)) namedUsers.add(id);
    else if (teamById.has(id)) namedTeams.add(id);
    else problems[`receivers.${i}`] = ['No user or team with this id in your organization.'];
  });
  userIds.forEach((id, i) => {
    if (userById.has(id)) namedUsers.add(id);
    else problems[`users_receivers.${i}`] = ['No user with this id in your organization.'];
  });
  teamIds.forEach((id, i) => {
    if (teamById.has(id)) namedTeams.add(id);
    else problems[`teams_receivers.${i}`] = ['No team with this id in your organization.'];
  });
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  if (namedUsers.has(actor.user.uuid)) throw badRequest('self_kudos', 'You cannot give kudos to yourself.');
  for (const id of namedUsers) {
    const user = userById.get(id)!;
    if (!(user.is_active === true || user.is_active === 1)) throw new ValidationFailed({ receivers: [`${fullName(user)} is deactivated.`] });
  }

  const receivers = new Map<string, PersonRef>();
  for (const id of namedUsers) {
    const { is_active: _active, ...person } = userById.get(id)!;
    receivers.set(id, person);
  }
  const namedTeamList = [...namedTeams].map((id) => teamById.get(id)!);
  const activeTeams = namedTeamList.filter((t) => t.active === true || t.active === 1).map((t) => t.uuid);
  let giverInTeam = false;
  if (activeTeams.length) {
    // Two single-table queries rather than a join: SQLite (STAT4) prepares a join again on every run (README).
    const memberUuids = [...new Set((await db('team_members').whereIn('team_uuid', activeTeams).select('user_uuid')).map((m: { user_uuid: string }) => m.user_uuid))];
    const members: PersonRef[] = [];
    for (let i = 0; i < memberUuids.length; i += 500) {
      members.push(...(await db('users').whereIn('uuid', memberUuids.slice(i, i + 500)).andWhere('is_active', true).select(...PERSON_COLUMNS)));
    }
    for (const member of members) {
      if (member.uuid === actor.user.uuid) giverInTeam = true;
      else receivers.set(member.uuid, member);
    }
  }
  if (receivers.size === 0) {
    if (giverInTeam) throw badRequest('self_kudos', 'You cannot give kudos to yourself: the named teams have no other active member.');
    throw new ValidationFailed({ receivers: ['The named teams have no active members.'] });
  }
  return { receivers: [...receivers.values()], teams: namedTeamList.map(({ uuid, name }) => ({ uuid, name })) };
}

/**
 * Counts one kudos against the giver's daily limit (the organization's local day) and refuses the one past it
 * with 406 `kudos_daily_limit`. One upsert, so concurrent requests cannot both take the last place; a refused
 * or failed kudos rolls the count back with its transaction.
 */
async function countAgainstDailyLimit(db: Executor, actor: Actor, limit: number, now: Date): Promise<void> {
  const day = today(actor, now);
  const [row] = await db('kudos_daily_counts')
    .insert({ giver_uuid: actor.user.uuid, day, count: 1 })
    .onConflict(['giver_uuid', 'day'])
    .merge({ count: db.raw('?? + 1', ['kudos_daily_counts.count']) })
    .returning(['count']);
  if (Number(row.count) > limit) {
    throw new ApiError(406, 'kudos_daily_limit', `You have given the ${limit} kudos a day your organization allows; you can give more tomorrow.`, {
      extra: { limit, given_today: limit },
    });
  }
}

async function companyValue(db: Executor, actor: Actor, uuid: string | null | undefined): Promise<CompanyValueRow | null> {
  if (!uuid) return null;
  const row: CompanyValueRow | undefined = await db('company_values').where({ organization_uuid: actor.organization.uuid, uuid }).first();
  if (!row) throw new ValidationFailed({ company_value: ['No company value with this id in your organization.'] });
  return row;
}

/** The `kudos.posted` event body; an anonymous kudos names no giver (the dispatcher strips people again). */
export function kudosEventPayload(view: KudosView) {
  const { row } = view;
  const person = (p: PersonRef) => ({ uuid: p.uuid, full_name: fullName(p) });
  return {
    uuid: row.uuid,
    id: row.uuid,
    kudos_uuid: row.uuid,
    content: row.content,
    is_anonymous: isAnonymous(row),
    giver: isAnonymous(row) || !view.giver ? null : person(view.giver),
    receivers: view.receivers.map(person),
    receiver_uuids: view.receivers.map((r) => r.uuid),
    teams: view.teams,
    company_value: view.companyValue ? { id: view.companyValue.uuid, value: view.companyValue.value, emoji: view.companyValue.emoji ?? null } : null,
    created_at: row.created_at,
  };
}

function announcement(view: KudosView): string {
  const names = view.receivers.map((r) => fullName(r));
  const to = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  const from = view.giver ? ` from ${fullName(view.giver)}` : '';
  const value = view.companyValue ? ` (${[view.companyValue.emoji, view.companyValue.value].filter(Boolean).join(' ')})` : '';
  return `${view.giver ? '🎉 Kudos' : '🎉 Anonymous kudos'}${from} to ${to}${value}: ${view.row.content}`;
}

/**
 * POST /v1/kudos/: one kudos with its receivers, the daily-limit count, the `kudos.posted` event and, with a
 * chat platform connected, the announcement, all in the caller's transaction.
 */
export async function giveKudos(db: Executor, actor: Actor, input: GiveKudosInput, now: Date): Promise<KudosView> {
  const content = input.content.trim();
  if (!content) throw new ValidationFailed({ content: ['This field may not be blank.'] });
  const { receivers, teams } = await resolveReceivers(db, actor, input);
  const value = await companyValue(db, actor, input.company_value);
  // One read of the organization's settings version for its kudos settings, the event's receivers and the chat platform.
  const config = await organizationConfig(db, actor.organization.uuid);
  const settings = await kudosSettings(db, actor.organization.uuid, config);
  await countAgainstDailyLimit(db, actor, settings.dailyLimit, now);

  const stamp = now.toISOString();
  const row: KudosRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: actor.organization.uuid,
    giver_uuid: actor.user.uuid,
    content,
    company_value_uuid: value?.uuid ?? null,
    is_anonymous: input.is_anonymous ?? false,
    boosts_count: 0,
    created_at: stamp,
  };
  await db('kudos').insert(row);
  const receiverRows = receivers.map((r) => ({ kudos_uuid: row.uuid, user_uuid: r.uuid, created_at: stamp }));
  for (let i = 0; i < receiverRows.length; i += 100) await db('kudos_receivers').insert(receiverRows.slice(i, i + 100));
  if (teams.length) await db('kudos_teams').insert(teams.map((t) => ({ kudos_uuid: row.uuid, team_uuid: t.uuid })));

  const giver: PersonRef = { uuid: actor.user.uuid, first_name: actor.user.first_name, last_name: actor.user.last_name, email: actor.user.email, image: actor.user.image ?? null };
  const view: KudosView = { row, giver: isAnonymous(row) ? null : giver, receivers, teams, companyValue: value, boosted: false };
  await recordEvent(db, { organizationUuid: row.organization_uuid, event: 'kudos.posted', payload: kudosEventPayload(view) }, now, config);
  if (settings.chatAnnouncements) {
    const platform = await platformName(db, row.organization_uuid, config);
    if (platform) {
      const channel = platform === 'slack' ? settings.chatChannel : null;
      await enqueueChatPost(db, { organizationUuid: row.organization_uuid, platform, text: announcement(view), channels: channel ? [channel] : [], users: channel ? [] : receivers, kind: 'kudos.announcement', subjectUuid: row.uuid }, now);
    }
  }
  return view;
}

/**
 * POST /v1/kudos/ through the group commit: kudos to teams arrive at a high rate (bench/kudos.ts) and a batch
 * commits once (db/group-commit.ts). giveKudos touches nothing but its transaction, so a batch can run it again.
 */
export const giveKudosBatched = (writes: GroupCommit, actor: Actor, input: GiveKudosInput, now: Date): Promise<KudosView> =>
  writes.run((trx) => giveKudos(trx, actor, input, now));

export async function getKudos(db: Executor, actor: Actor, uuid: string): Promise<KudosView> {
  const row: KudosRow | undefined = await visibleKudos(db, actor).andWhere('k.uuid', uuid).first('k.*');
  if (!row) throw notFound();
  return (await viewsOf(db, [row], actor.user.uuid))[0];
}

/** POST /v1/kudos/{uuid}/boost/: once per person per kudos, never your own. */
async function boostKudosInTransaction(db: Executor, actor: Actor, uuid: string, now: Date): Promise<KudosView> {
  const row: KudosRow | undefined = await visibleKudos(db, actor).andWhere('k.uuid', uuid).first('k.*');
  if (!row) throw notFound();
  if (row.giver_uuid === actor.user.uuid) throw badRequest('self_boost', 'You cannot boost a kudos you gave.');
  const inserted = await db('kudos_boosts')
    .insert({ kudos_uuid: uuid, user_uuid: actor.user.uuid, organization_uuid: row.organization_uuid, created_at: now.toISOString() })
    .onConflict(['kudos_uuid', 'user_uuid'])
    .ignore()
    .returning(['kudos_uuid']);
  if (inserted.length === 0) throw conflict('already_boosted', 'You already boosted this kudos.');
  await db('kudos').where({ uuid }).increment('boosts_count', 1);
  return (await viewsOf(db, [{ ...row, boosts_count: Number(row.boosts_count) + 1 }], actor.user.uuid))[0];
}

/** In a transaction of its own (a savepoint when given one). */
export function boostKudos(db: Executor, actor: Actor, uuid: string, now: Date): Promise<KudosView> {
  return db.transaction((trx) => boostKudosInTransaction(trx, actor, uuid, now));
}

export interface KudosFilters {
  /** The caller's kudos: given, received, or either (the default of GET /v1/kudos/). */
  side?: 'given' | 'received' | 'both';
  from?: Date;
  to?: Date;
  search?: string;
  companyValue?: string;
  giver?: string;
  receiver?: string;
}

/**
 * The kudos lists, newest first: the caller's own (`side`), the timeline (every visible kudos) and the admins'
 * organization list. A `giver` filter never matches an anonymous kudos.
 */
export async function listKudos(db: Executor, actor: Actor, filters: KudosFilters, page: PageRequest): Promise<{ count: number; views: KudosView[] }> {
  const filtered = () => {
    const query = visibleKudos(db, actor);
    if (filters.side) involving(db, query, actor.user.uuid, filters.side);
    if (filters.from) query.andWhere('k.created_at', '>=', filters.from.toISOString());
    if (filters.to) query.andWhere('k.created_at', '<', filters.to.toISOString());
    if (filters.search) query.andWhereRaw("lower(k.content) like ? escape '\\'", [likePattern(filters.search)]);
    if (filters.companyValue) query.andWhere('k.company_value_uuid', filters.companyValue);
    if (filters.giver) query.andWhere('k.giver_uuid', filters.giver).andWhere('k.is_anonymous', false);
    if (filters.receiver) involving(db, query, filters.receiver, 'received');
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: KudosRow[] = await filtered().select('k.*').orderBy('k.created_at', 'desc').orderBy('k.uuid', 'desc').limit(page.limit).offset(page.offset);
  return { count: Number(count), views: await viewsOf(db, rows, actor.user.uuid) };
}

import type { Db, Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { issueExchangeToken, recordAudit } from '../../auth/exchange-tokens.ts';
import { assertCan } from '../../auth/policy.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { bool } from '../../lib/json.ts';
import type { AuditAction, AuditEventRow, ExchangeTokenRow, UserRow } from '../../db/tables.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { ExchangeTokenInput } from './schema.ts';

/**
 * An admin's credential gets a 300-second token to act as one active member of the organization (CONTRACT §4),
 * once an operator has turned exchange tokens on for it (`rollcall admin org exchange ORG on`). The issue is
 * audited with the member and the admin.
 */
export function exchangeToken(db: Db, actor: Actor, input: ExchangeTokenInput, now: Date): Promise<{ row: ExchangeTokenRow; token: string; member: UserRow }> {
  return db.transaction(async (trx) => {
    assertCan(actor, 'exchange_tokens.issue');
    const organization = await trx('organizations').where({ uuid: actor.organization.uuid }).first('exchange_enabled');
    if (!bool(organization?.exchange_enabled)) {
      throw forbidden('exchange_tokens_disabled', 'Exchange tokens are off for this organization; an operator turns them on.');
    }
    const member = await trx('users').where({ uuid: input.user_uuid.toLowerCase(), organization_uuid: actor.organization.uuid }).first();
    if (!member || !bool(member.is_active)) throw notFound();
    const issued = await issueExchangeToken(trx, { organizationUuid: actor.organization.uuid, userUuid: member.uuid, issuedByUuid: actor.user.uuid, credentialUuid: actor.credential.uuid }, now);
    await recordAudit(
      trx,
      { organizationUuid: actor.organization.uuid, action: 'exchange_token.issued', actorUuid: member.uuid, adminUuid: actor.user.uuid, credentialUuid: actor.credential.uuid, exchangeTokenUuid: issued.row.uuid },
      now,
    );
    return { ...issued, member };
  });
}

export type AuditPerson = Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>;

/**
 * The organization's record of acting for others, newest first (admins): each exchange token issued and each
 * request made with one, narrowed to one `action` or to one person (as the member acted as, or as the admin).
 */
export async function listAudit(db: Executor, actor: Actor, filters: { action?: AuditAction; user?: string }, page: PageRequest): Promise<{ count: number; rows: AuditEventRow[]; people: Map<string, AuditPerson> }> {
  assertCan(actor, 'exchange_tokens.read_audit');
  const filtered = () => {
    const query = db('audit_events').where({ organization_uuid: actor.organization.uuid });
    if (filters.action) query.andWhere({ action: filters.action });
    if (filters.user) query.andWhere((w) => w.where({ actor_uuid: filters.user }).orWhere({ admin_uuid: filters.user }));
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: AuditEventRow[] = await filtered().orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(page.limit).offset(page.offset);
  const uuids = [...new Set(rows.flatMap((r) => [r.actor_uuid, r.admin_uuid]).filter((u): u is string => u !== null))];
  const people: AuditPerson[] = uuids.length ? await db('users').whereIn('uuid', uuids).select('uuid', 'first_name', 'last_name', 'email') : [];
  return { count: Number(count), rows, people: new Map(people.map((p) => [p.uuid, p])) };
}

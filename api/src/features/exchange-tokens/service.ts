import type { Db } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { issueExchangeToken, recordAudit } from '../../auth/exchange-tokens.ts';
import { assertCan } from '../../auth/policy.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { bool } from '../../lib/json.ts';
import type { ExchangeTokenRow, UserRow } from '../../db/tables.ts';
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

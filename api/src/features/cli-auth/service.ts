import type { Db, Executor } from '../../db/connection.ts';
import { issueCliToken } from '../../auth/tokens.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { newSignInCode, safeEqual } from '../../lib/secrets.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { CliSignInCodeRow, InvitationRow, OrganizationRow, UserRow } from '../../db/tables.ts';
import { bool } from '../../lib/json.ts';
import { isInvitationExpired } from '../users/invitation-state.ts';
import { activateInvitation } from '../invitations/service.ts';
import { codeEmail, expiredInvitationEmail, noAccountEmail } from './emails.ts';
import type { RequestCodeInput, VerifyCodeInput } from './schema.ts';

/** CONTRACT §4: a code is valid 10 minutes and may be tried 5 times. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const CODE_TRIES = 5;
const MAC_PURPOSE = 'cli sign-in code';

/**
 * A person the address signs in as: an active user of one organization, or an invited one whose invitation is
 * still open (signing in accepts it: the code proves the mailbox as the invitation's link does).
 */
export interface SignInCandidate {
  user: UserRow;
  organization: Pick<OrganizationRow, 'uuid' | 'name' | 'plan'>;
  /** The open invitation that signing in accepts; null for an active member. */
  invitation: OpenInvitation | null;
}

type OpenInvitation = Pick<InvitationRow, 'uuid' | 'organization_uuid' | 'user_uuid' | 'expires_at' | 'last_sent_at'>;

/** What an address is in the organizations: whom it signs in as, and the organizations whose invitation expired. */
interface AddressPeople {
  candidates: SignInCandidate[];
  expiredInvitations: string[];
}

/**
 * The address's users, one per organization, in the order the organizations were created: the active ones and
 * the invited ones with an open invitation sign in; an expired invitation is named so its e-mail can say so.
 * One query whatever the address holds (the code request does the same work for every address).
 */
async function peopleOf(db: Executor, email: string, now: Date): Promise<AddressPeople> {
  type Row = UserRow & { o__name: string; o__plan: OrganizationRow['plan']; i__uuid: string | null; i__expires_at: string | null; i__last_sent_at: string | null };
  const rows: Row[] = await db('users as u')
    .join('organizations as o', 'o.uuid', 'u.organization_uuid')
    .leftJoin('invitations as i', (join) => join.on('i.user_uuid', 'u.uuid').andOnNull('i.accepted_at'))
    .where('u.email', email)
    .orderBy('o.created_at')
    .orderBy('o.uuid')
    .select('u.*', 'o.name as o__name', 'o.plan as o__plan', 'i.uuid as i__uuid', 'i.expires_at as i__expires_at', 'i.last_sent_at as i__last_sent_at');
  const people: AddressPeople = { candidates: [], expiredInvitations: [] };
  for (const { o__name, o__plan, i__uuid, i__expires_at, i__last_sent_at, ...user } of rows) {
    const organization = { uuid: user.organization_uuid, name: o__name, plan: o__plan };
    const invitation = i__uuid ? { uuid: i__uuid, organization_uuid: user.organization_uuid, user_uuid: user.uuid, expires_at: i__expires_at, last_sent_at: i__last_sent_at! } : null;
    if (bool(user.is_active)) people.candidates.push({ user, organization, invitation: null });
    else if (invitation && !isInvitationExpired(invitation, now)) people.candidates.push({ user, organization, invitation });
    else if (invitation) people.expiredInvitations.push(o__name);
  }
  return people;
}

const codeHash = (box: SecretBox, uuid: string, code: string) => box.mac(MAC_PURPOSE, `${uuid}:${code}`);

/**
 * E-mails a six-digit code, or, to an address no account uses, an e-mail that says so. Either way the same
 * work: the same lookup, a code made, hashed and stored (an earlier unspent code of the address is spent),
 * one e-mail into the outbox with the code encrypted beside it. The caller gets the same answer for both, so
 * it cannot tell whether the address has an account.
 */
export function requestCode(db: Db, box: SecretBox, input: RequestCodeInput, site: string, now: Date): Promise<void> {
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (trx) => {
    const { candidates, expiredInvitations } = await peopleOf(trx, email, now);
    const code = newSignInCode();
    const uuid = uuidv7(now.getTime());
    const stamp = now.toISOString();
    await trx('cli_sign_in_codes').where({ email }).whereNull('spent_at').update({ spent_at: stamp });
    await trx('cli_sign_in_codes').insert({
      uuid,
      email,
      code_hash: codeHash(box, uuid, code),
      failed_attempts: 0,
      expires_at: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
      spent_at: null,
      created_at: stamp,
    });
    const message = candidates.length
      ? codeEmail(email, candidates.map((p) => ({ name: p.organization.name, invited: p.invitation !== null })), site)
      : expiredInvitations.length
        ? expiredInvitationEmail(email, expiredInvitations, site)
        : noAccountEmail(email, site);
    // No organization: the e-mail belongs to no organization's delivery log until someone has signed in.
    await enqueueEmail(trx, { organizationUuid: null, kind: 'cli_sign_in', message, secretEncrypted: box.encrypt(code) }, now);
  });
}

export type VerifyResult =
  | { kind: 'signed_in'; token: string; expiresAt: string; candidate: SignInCandidate }
  | { kind: 'choose_organization'; candidates: SignInCandidate[] };

const invalidCode = (attemptsLeft?: number) =>
  badRequest('invalid_code', 'That code is not right. Check the latest sign-in e-mail.', attemptsLeft === undefined ? undefined : { attempts_left: attemptsLeft });
const codeExpired = () =>
  badRequest('code_expired', 'This code is no longer valid: it expired after 10 minutes, was used, or was tried 5 times. Ask for a new code.');

/** What one verification decided: the answer, or the refusal to throw once the transaction has committed. */
type Outcome = VerifyResult | ApiError;

/**
 * Checks the code of the address's latest request. A wrong code uses one of its 5 tries (counted in one atomic
 * update, so tries made at the same moment all count); the fifth spends it. A right code signs in to the one
 * organization of the address, or to `organization_id` among several; without it, the answer lists them and the
 * code stays valid for the second call. A token lasts 30 days.
 */
export async function verifyCode(db: Db, box: SecretBox, input: VerifyCodeInput, now: Date): Promise<VerifyResult> {
  const email = input.email.trim().toLowerCase();
  const outcome: Outcome = await db.transaction(async (trx): Promise<Outcome> => {
    const rows: CliSignInCodeRow[] = await trx('cli_sign_in_codes').where({ email });
    const latest = rows.sort((a, b) => (a.created_at === b.created_at ? (a.uuid < b.uuid ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))[0];
    if (!latest) return invalidCode();
    const stamp = now.toISOString();
    if (latest.spent_at) return codeExpired();
    if (latest.expires_at <= stamp) {
      await trx('cli_sign_in_codes').where({ uuid: latest.uuid }).update({ spent_at: stamp });
      return codeExpired();
    }
    if (!safeEqual(codeHash(box, latest.uuid, input.code), latest.code_hash)) {
      const [counted] = await trx('cli_sign_in_codes')
        .where({ uuid: latest.uuid })
        .whereNull('spent_at')
        .update({ failed_attempts: trx.raw('?? + 1', ['failed_attempts']) })
        .returning(['failed_attempts']);
      if (!counted) return codeExpired();
      const failed = Number(counted.failed_attempts);
      if (failed >= CODE_TRIES) await trx('cli_sign_in_codes').where({ uuid: latest.uuid }).update({ spent_at: stamp });
      return invalidCode(Math.max(0, CODE_TRIES - failed));
    }

    const { candidates: people } = await peopleOf(trx, email, now);
    let chosen: SignInCandidate | undefined;
    if (input.organization_id) {
      chosen = people.find((p) => p.organization.uuid === input.organization_id!.toLowerCase());
      if (!chosen) return badRequest('invalid_organization', 'This address has no account in that organization.', { parameter: 'organization_id' });
    } else if (people.length > 1) {
      return { kind: 'choose_organization', candidates: people };
    } else {
      chosen = people[0];
    }
    // Only a code made for an address without an account gets here without a person (its code was never sent).
    if (!chosen) return invalidCode();
    const spent = await trx('cli_sign_in_codes').where({ uuid: latest.uuid }).whereNull('spent_at').update({ spent_at: stamp });
    if (spent !== 1) return codeExpired();
    // An invited person's first sign-in accepts the invitation. Null: its link accepted it at the same moment (the
    // person is active: go on), or it was revoked meanwhile (the person is gone: the address has no account now).
    if (chosen.invitation && !(await activateInvitation(trx, chosen.invitation, now))) {
      if (!(await trx('users').where({ uuid: chosen.user.uuid, is_active: true }).first('uuid'))) return invalidCode();
    }
    const issued = await issueCliToken(trx, { organizationUuid: chosen.organization.uuid, userUuid: chosen.user.uuid }, now);
    return { kind: 'signed_in', token: issued.token, expiresAt: issued.expiresAt, candidate: chosen };
  });
  if (outcome instanceof ApiError) throw outcome;
  return outcome;
}

/** Drops codes a day past their expiry (the hourly job): they can never sign anyone in again. */
export async function pruneSignInCodes(db: Executor, now: Date): Promise<number> {
  return db('cli_sign_in_codes').where('expires_at', '<', new Date(now.getTime() - 24 * 3600 * 1000).toISOString()).delete();
}

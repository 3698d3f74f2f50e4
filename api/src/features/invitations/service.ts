import type { Executor } from '../../db/connection.ts';
import { ApiError, ValidationFailed, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson, bool } from '../../lib/json.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import type { Actor } from '../../auth/credentials.ts';
import { issueCliToken } from '../../auth/tokens.ts';
import { cancelPending, enqueueEmail } from '../../outbox/deliveries.ts';
import { recordEvent } from '../webhooks/events.ts';
import { assertCan } from '../../auth/policy.ts';
import { createUser, fullName } from '../users/repository.ts';
import { INVITATION_LIFETIME_MS, invitationExpiry, isInvitationExpired } from '../users/invitation-state.ts';
import { invitationEmail } from './emails.ts';
import type { InviteUserInput } from './schema.ts';
import type { InvitationRow, Role, UserRow } from '../../db/tables.ts';

export interface InvitationResult {
  invitation: InvitationRow;
  user: UserRow;
  resent: boolean;
}

/**
 * Creates the invited user (inactive until accepted) and keeps the invitation e-mail in the outbox, in one
 * transaction. Inviting a pending address again resends: a new link, valid 7 days; the old link stops and its
 * e-mail, if still waiting in the outbox, is cancelled. An active or deactivated user answers 409 with a code
 * that says which. `baseUrl` is where the link points (PUBLIC_URL, or the address the request reached).
 */
export async function inviteUser(db: Executor, actor: Actor, input: InviteUserInput, now: Date, baseUrl: string): Promise<InvitationResult> {
  return db.transaction(async (trx) => {
    assertCan(actor, 'users.invite');
    if (input.is_guest && input.role && input.role !== 'guest') {
      throw new ValidationFailed({ role: ['Contradicts is_guest: true.'] });
    }
    const role: Role = input.is_guest ? 'guest' : (input.role ?? 'member');
    if (role === 'admin') assertCan(actor, 'users.invite_admin', 'Only organization admins can invite admins.');

    const teamUuids = [...new Set(input.team_uuids ?? [])];
    if (teamUuids.length) {
      const found = new Set((await trx('teams').where('organization_uuid', actor.organization.uuid).whereIn('uuid', teamUuids).select('uuid')).map((t: { uuid: string }) => t.uuid));
      const problems: Record<string, string[]> = {};
      (input.team_uuids ?? []).forEach((uuid, i) => {
        if (!found.has(uuid)) problems[`team_uuids.${i}`] = ['No team with this id in your organization.'];
      });
      if (Object.keys(problems).length) throw new ValidationFailed(problems);
    }

    const email = input.email.trim().toLowerCase();
    const token = randomBase62(40);
    const stamp = now.toISOString();
    const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString();
    let user: UserRow | undefined = await trx('users').where({ organization_uuid: actor.organization.uuid, email }).first();
    let invitation: InvitationRow | undefined;
    let resent = false;
    if (user) {
      if (bool(user.is_active)) {
        throw conflict('user_already_exists', 'A user with this e-mail address is already a member of the organization.', { user_uuid: user.uuid });
      }
      invitation = await trx('invitations').where({ user_uuid: user.uuid }).first();
      if (!invitation || invitation.accepted_at) {
        throw conflict('user_deactivated', 'This user was deactivated; an admin can reactivate them with PATCH /v1/users/{uuid}/ and is_active: true.', { user_uuid: user.uuid });
      }
      resent = true;
      const merged = [...new Set([...readJson<string[]>(invitation.team_uuids, []), ...teamUuids])];
      await trx('invitations').where({ uuid: invitation.uuid }).update({
        token_hash: sha256Hex(token),
        sent_count: invitation.sent_count + 1,
        last_sent_at: stamp,
        expires_at: expiresAt,
        team_uuids: writeJson(merged),
        updated_at: stamp,
      });
      // The older e-mail's link no longer works: if it is still waiting to be sent, it is not sent.
      await cancelPending(trx, { channel: 'email', refUuid: invitation.uuid }, 'replaced by a newer invitation e-mail', now);
    } else {
      user = await createUser(
        trx,
        { organizationUuid: actor.organization.uuid, email, firstName: input.first_name, lastName: input.last_name, role, isActive: false },
        now,
      );
      await trx('invitations').insert({
        uuid: uuidv7(now.getTime()),
        organization_uuid: actor.organization.uuid,
        user_uuid: user.uuid,
        invited_by_uuid: actor.user.uuid,
        email: user.email,
        role,
        team_uuids: writeJson(teamUuids),
        token_hash: sha256Hex(token),
        sent_count: 1,
        last_sent_at: stamp,
        expires_at: expiresAt,
        accepted_at: null,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    for (const teamUuid of teamUuids) {
      await trx('team_members').insert({ team_uuid: teamUuid, user_uuid: user.uuid, created_at: stamp }).onConflict(['team_uuid', 'user_uuid']).ignore();
    }
    invitation = await trx('invitations').where({ user_uuid: user.uuid }).first();
    if (!invitation) throw notFound();
    const message = invitationEmail({ inviter: actor.user, organization: actor.organization.name, invitee: user, token, expiresAt, baseUrl });
    await enqueueEmail(trx, { organizationUuid: actor.organization.uuid, kind: 'invitation', message, refUuid: invitation.uuid }, now);
    return { invitation, user, resent };
  });
}

/**
 * Makes an invited person a member: the invitation is marked accepted (only if nobody did at the same moment:
 * null then) and the user active, with the `organization.user_activated` event. The link's acceptance and the
 * e-mailed-code sign-in (features/cli-auth) both come here.
 */
export async function activateInvitation(trx: Executor, invitation: Pick<InvitationRow, 'uuid' | 'organization_uuid' | 'user_uuid'>, now: Date): Promise<UserRow | null> {
  const stamp = now.toISOString();
  const claimed = await trx('invitations').where({ uuid: invitation.uuid }).whereNull('accepted_at').update({ accepted_at: stamp, updated_at: stamp });
  if (claimed !== 1) return null;
  await trx('users').where({ uuid: invitation.user_uuid }).update({ is_active: true, updated_at: stamp });
  const user: UserRow | undefined = await trx('users').where({ uuid: invitation.user_uuid }).first();
  if (!user) return null;
  const payload = { user: { uuid: user.uuid, full_name: fullName(user), email: user.email }, by: null };
  await recordEvent(trx, { organizationUuid: invitation.organization_uuid, event: 'organization.user_activated', payload }, now);
  return user;
}

export interface Acceptance {
  user: UserRow;
  organization: { uuid: string; name: string };
  /** With `session`: the 30-day token of the web session (set as the cookie, never in the body). */
  session: { token: string; expiresAt: string } | null;
}

const invitationNotFound = () =>
  new ApiError(404, 'invitation_not_found', 'This invitation link is not valid: a newer invitation e-mail replaced it, the invitation was revoked, or the link was cut short. Ask whoever invited you to send it again.');
const alreadyAccepted = () =>
  badRequest('invitation_already_accepted', 'This invitation was already accepted. Sign in with your e-mail address: Rollcall e-mails you a code.');

/**
 * Accepting the invitation makes the person a member. The link works once and for 7 days from its e-mail; a resend
 * replaced older links, a revoked invitation has none. A deactivated person cannot come back with an old link:
 * acceptance is for pending invitations only. With `session`, the person is signed in too (a CLI token for the web
 * app's cookie), in the same transaction: the link proves the mailbox as the e-mailed code does.
 */
export async function acceptInvitation(db: Executor, token: string, now: Date, options: { session: boolean }): Promise<Acceptance> {
  return db.transaction(async (trx) => {
    const invitation: InvitationRow | undefined = await trx('invitations').where({ token_hash: sha256Hex(token) }).first();
    if (!invitation) throw invitationNotFound();
    if (invitation.accepted_at) throw alreadyAccepted();
    if (isInvitationExpired(invitation, now)) {
      const expiredAt = invitationExpiry(invitation);
      throw badRequest('invitation_expired', `This invitation expired on ${expiredAt}. Ask whoever invited you to send it again: the new e-mail's link works for 7 days.`, { expired_at: expiredAt });
    }
    const user = await activateInvitation(trx, invitation, now);
    // Accepted by someone else at the same moment (the link twice at once, or the e-mailed code).
    if (!user) throw alreadyAccepted();
    // It exists: the invitation row references it (foreign key, ON DELETE CASCADE).
    const organization = await trx('organizations').where({ uuid: invitation.organization_uuid }).first('uuid', 'name');
    if (!organization) throw invitationNotFound();
    const session = options.session ? await issueCliToken(trx, { organizationUuid: organization.uuid, userUuid: user.uuid }, now) : null;
    return { user, organization, session };
  });
}

/**
 * Revoking takes back an invitation nobody accepted: its link stops, its e-mail is not sent if it still waits in
 * the outbox, and the person it created goes, with their team and check-in places (they never signed in, so
 * nothing of theirs is lost). The address can be invited again. An accepted invitation answers 409: deactivate
 * the person instead.
 */
export async function revokeInvitation(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    assertCan(actor, 'users.invite');
    const invitation: InvitationRow | undefined = await trx('invitations').where({ uuid, organization_uuid: actor.organization.uuid }).first();
    if (!invitation) throw notFound();
    if (invitation.role === 'admin') assertCan(actor, 'users.invite_admin', "Only organization admins can revoke an admin's invitation.");
    if (invitation.accepted_at) {
      throw conflict(
        'invitation_already_accepted',
        `This invitation was accepted: ${invitation.email} is a member. Deactivate them instead (PATCH /v1/users/{uuid}/ with is_active: false).`,
        { user_uuid: invitation.user_uuid },
      );
    }
    await cancelPending(trx, { channel: 'email', refUuid: invitation.uuid }, 'invitation revoked', now);
    await trx('users').where({ uuid: invitation.user_uuid, is_active: false }).delete();
  });
}

import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson, bool } from '../../lib/json.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import type { Actor } from '../../auth/credentials.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import { recordEvent } from '../webhooks/events.ts';
import { assertCan } from '../../auth/policy.ts';
import { createUser, fullName } from '../users/repository.ts';
import type { InviteUserInput } from './schema.ts';
import type { InvitationRow, Role, UserRow } from '../../db/tables.ts';

export interface InvitationResult {
  invitation: InvitationRow;
  user: UserRow;
  resent: boolean;
}

function invitationEmail(actor: Actor, user: UserRow, token: string, publicUrl: string | null) {
  const link = `${(publicUrl ?? '').replace(/\/$/, '')}/invitations/accept?token=${token}`;
  const inviter = fullName(actor.user);
  const greeting = user.first_name ? `Hi ${user.first_name},` : 'Hi,';
  return {
    to: [user.email],
    subject: `${inviter} invited you to ${actor.organization.name} on Rollcall`,
    text: `${greeting}\n\n${inviter} invited you to join ${actor.organization.name} on Rollcall, where the team shares its check-ins.\n\nAccept the invitation: ${link}\n\nIf you did not expect this e-mail you can ignore it.\n`,
  };
}

/**
 * Creates the invited user (inactive until accepted) and keeps the invitation e-mail in the outbox, in one
 * transaction. Inviting a pending address again resends (a new link, the old one stops); an active or
 * deactivated user answers 409 with a code that says which.
 */
export async function inviteUser(db: Executor, actor: Actor, input: InviteUserInput, now: Date, publicUrl: string | null): Promise<InvitationResult> {
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
        team_uuids: writeJson(merged),
        updated_at: stamp,
      });
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
        accepted_at: null,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    for (const teamUuid of teamUuids) {
      await trx('team_members').insert({ team_uuid: teamUuid, user_uuid: user.uuid, created_at: stamp }).onConflict(['team_uuid', 'user_uuid']).ignore();
    }
    await enqueueEmail(trx, { organizationUuid: actor.organization.uuid, kind: 'invitation', message: invitationEmail(actor, user, token, publicUrl) }, now);
    invitation = await trx('invitations').where({ user_uuid: user.uuid }).first();
    if (!invitation) throw notFound();
    return { invitation, user, resent };
  });
}

/**
 * Accepting the invitation activates the user (the link is single-use; a resend replaced older links). A
 * deactivated user cannot reactivate themselves with an old link: acceptance is for pending invitations only.
 */
export async function acceptInvitation(db: Executor, token: string, now: Date): Promise<{ user: UserRow; organization: { uuid: string; name: string } }> {
  return db.transaction(async (trx) => {
    const invitation: InvitationRow | undefined = await trx('invitations').where({ token_hash: sha256Hex(token) }).first();
    if (!invitation) throw notFound();
    if (invitation.accepted_at) throw badRequest('invitation_already_accepted', 'This invitation was already accepted.');
    const stamp = now.toISOString();
    await trx('invitations').where({ uuid: invitation.uuid }).update({ accepted_at: stamp, updated_at: stamp });
    await trx('users').where({ uuid: invitation.user_uuid }).update({ is_active: true, updated_at: stamp });
    const user = await trx('users').where({ uuid: invitation.user_uuid }).first();
    const organization = await trx('organizations').where({ uuid: invitation.organization_uuid }).first('uuid', 'name');
    // Both exist: the invitation row references them (foreign keys, ON DELETE CASCADE).
    if (!user || !organization) throw notFound();
    const payload = { user: { uuid: user.uuid, full_name: fullName(user), email: user.email }, by: null };
    await recordEvent(trx, { organizationUuid: invitation.organization_uuid, event: 'organization.user_activated', payload }, now);
    return { user, organization };
  });
}

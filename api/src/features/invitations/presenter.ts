import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { presentUser } from '../users/presenter.ts';
import type { InvitationResult } from './service.ts';
import type { UserRow } from '../../db/tables.ts';

export function presentInvitation({ invitation, user, resent }: InvitationResult) {
  return {
    uuid: invitation.uuid,
    id: invitation.uuid,
    email: invitation.email,
    role: invitation.role,
    status: invitation.accepted_at ? 'accepted' : 'pending',
    resent,
    sent_count: invitation.sent_count,
    last_sent_at: iso(invitation.last_sent_at),
    team_uuids: readJson<string[]>(invitation.team_uuids, []),
    invited_by_uuid: invitation.invited_by_uuid,
    user: presentUser(user, { email: true }),
    created_at: iso(invitation.created_at),
  };
}

/** POST /v1/invitations/accept/: the person, now active, and their organization. */
export function presentAcceptance({ user, organization }: { user: UserRow; organization: { uuid: string; name: string } }) {
  return { detail: 'Invitation accepted.', user: presentUser(user, { email: true }), organization };
}

import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { presentUser } from '../users/presenter.ts';
import { invitationExpiry } from '../users/invitation-state.ts';
import type { Acceptance, InvitationResult } from './service.ts';

export function presentInvitation({ invitation, user, resent }: InvitationResult, now: Date) {
  return {
    uuid: invitation.uuid,
    id: invitation.uuid,
    email: invitation.email,
    role: invitation.role,
    status: invitation.accepted_at ? 'accepted' : 'pending',
    resent,
    sent_count: invitation.sent_count,
    last_sent_at: iso(invitation.last_sent_at),
    expires_at: iso(invitationExpiry(invitation)),
    team_uuids: readJson<string[]>(invitation.team_uuids, []),
    invited_by_uuid: invitation.invited_by_uuid,
    user: presentUser(user, { email: true, invitation, now }),
    created_at: iso(invitation.created_at),
  };
}

/**
 * POST /v1/invitations/accept/: the person, now active, and their organization; with `session: true` also
 * `authenticated` and the session's `expires_at` (its token travels only in the HttpOnly cookie).
 */
export function presentAcceptance({ user, organization, session }: Acceptance, now: Date) {
  return {
    detail: 'Invitation accepted.',
    user: presentUser(user, { email: true, invitation: null, now }),
    organization,
    ...(session ? { authenticated: true, expires_at: session.expiresAt } : {}),
  };
}

import type { EmailMessage } from '../../outbox/deliveries.ts';
import { fullName } from '../users/repository.ts';
import type { UserRow } from '../../db/tables.ts';

/** The web app's page that accepts an invitation (app/src/pages/invitation.tsx); the token follows as `?token=`. */
export const ACCEPT_PATH = '/app/invitations/accept';

export const acceptLink = (baseUrl: string, token: string): string => `${baseUrl.replace(/\/$/, '')}${ACCEPT_PATH}?token=${token}`;

/** "2026-03-17 15:00 UTC": a moment every reader reads the same way, whatever their language and zone. */
const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The invitation e-mail: an absolute link to the app's acceptance page (PUBLIC_URL, or the address the inviter's
 * request reached), when it stops working, and how to sign in later (the e-mailed code, which also accepts a
 * waiting invitation).
 */
export function invitationEmail(params: { inviter: UserRow; organization: string; invitee: UserRow; token: string; expiresAt: string; baseUrl: string }): EmailMessage {
  const { invitee, organization, token, expiresAt, baseUrl } = params;
  const inviter = fullName(params.inviter);
  const greeting = invitee.first_name ? `Hi ${invitee.first_name},` : 'Hi,';
  const app = `${baseUrl.replace(/\/$/, '')}/app/`;
  return {
    to: [invitee.email],
    subject: `${inviter} invited you to ${organization} on Rollcall`,
    text:
      `${greeting}\n\n${inviter} invited you to join ${organization} on Rollcall, where the team shares its check-ins.\n\n` +
      `Accept the invitation: ${acceptLink(baseUrl, token)}\n\n` +
      `The link signs you in. It works once, until ${utc(expiresAt)}. Afterwards, sign in at ${app} with this address: Rollcall e-mails you a code.\n\n` +
      'If you did not expect this e-mail you can ignore it.\n',
  };
}

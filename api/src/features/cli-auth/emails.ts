import type { EmailMessage } from '../../outbox/deliveries.ts';
import { EMAIL_SECRET_PLACEHOLDER } from '../../outbox/deliveries.ts';

/**
 * The sign-in e-mail for an address with an account (or an open invitation, which signing in accepts); the code
 * itself is put in when it is sent.
 */
export function codeEmail(to: string, organizations: { name: string; invited: boolean }[], site: string): EmailMessage {
  const names = organizations.map((o) => o.name);
  const where = names.length > 1 ? `You can sign in to ${names.join(', ')}.` : `You are signing in to ${names[0]}.`;
  const invited = organizations.filter((o) => o.invited).map((o) => o.name);
  const accepts = invited.length ? ` Signing in accepts your invitation to ${invited.join(', ')}.` : '';
  return {
    to: [to],
    subject: 'Your Rollcall sign-in code',
    text:
      `Your Rollcall sign-in code is ${EMAIL_SECRET_PLACEHOLDER}\n\n` +
      `Type it where the command line asks for it. It is valid for 10 minutes and can be tried 5 times. ${where}${accepts}\n\n` +
      `If you did not ask to sign in${site}, you can ignore this e-mail: nobody can sign in without the code.\n`,
  };
}

/** The e-mail for an address whose only invitations expired: it says so instead of "no account uses it". */
export function expiredInvitationEmail(to: string, organizations: string[], site: string): EmailMessage {
  return {
    to: [to],
    subject: 'Rollcall sign-in',
    text:
      `Someone asked to sign in to Rollcall${site} with this address. Your invitation to ${organizations.join(', ')} expired before it was accepted.\n\n` +
      `Ask whoever invited you to send it again: the new e-mail's link works for 7 days, and signing in with this address accepts it too.\n\n` +
      `If it was not you, you can ignore this e-mail.\n`,
  };
}

/** The e-mail for an address no account uses: the same one e-mail, so the answer tells nobody else anything. */
export function noAccountEmail(to: string, site: string): EmailMessage {
  return {
    to: [to],
    subject: 'Rollcall sign-in',
    text:
      `Someone asked to sign in to Rollcall${site} with this address, but no account uses it.\n\n` +
      `If it was you, ask an admin of your organization to invite this address, or sign in with the address you were invited with.\n\n` +
      `If it was not you, you can ignore this e-mail.\n`,
  };
}

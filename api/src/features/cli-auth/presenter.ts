import type { Actor } from '../../auth/credentials.ts';
import { fullName } from '../users/repository.ts';
import type { SignInCandidate, VerifyResult } from './service.ts';

/**
 * The answer to a code request, the same whatever the address: `is_multi_org` and `organizations` (CONTRACT §4)
 * are always false and empty here, since naming an address's organizations before the code is checked would tell
 * anyone which addresses have accounts. verify-code names them once the code proves the mailbox.
 */
export const presentCodeRequested = () => ({
  detail: 'If an account uses this address, a six-digit sign-in code is on its way. It is valid for 10 minutes.',
  is_multi_org: false,
  organizations: [],
});

const organizationRef = ({ organization }: SignInCandidate) => ({ id: organization.uuid, uuid: organization.uuid, name: organization.name });

export function presentVerification(result: VerifyResult) {
  if (result.kind === 'choose_organization') {
    return {
      requires_organization_selection: true,
      detail: 'This address belongs to several organizations: send the same code again with organization_id.',
      organizations: result.candidates.map(organizationRef),
    };
  }
  const { user, organization } = result.candidate;
  return {
    token: result.token,
    expires_at: result.expiresAt,
    organization: { ...organizationRef(result.candidate), plan: organization.plan },
    user: { uuid: user.uuid, email: user.email, full_name: fullName(user) },
  };
}

/**
 * POST /v1/cli/auth/session/: the verification without the token, which travels only in the HttpOnly cookie.
 * An address in several organizations gets the same list to choose from as verify-code.
 */
export function presentSession(result: VerifyResult) {
  if (result.kind === 'choose_organization') return presentVerification(result);
  const { token: _token, ...session } = presentVerification(result) as { token: string };
  return { authenticated: true, ...session };
}

/** GET /v1/cli/auth/status/, the same for an API key and a CLI token of the same person. */
export const presentAuthStatus = ({ user, organization }: Actor) => ({
  authenticated: true,
  user: { uuid: user.uuid, email: user.email, full_name: fullName(user) },
  organization: { id: organization.uuid, uuid: organization.uuid, name: organization.name },
});

export const presentSignedOut = () => ({ detail: 'Signed out: this token no longer works.' });

export const presentSignedOutEverywhere = (revoked: number) => ({
  detail: 'Signed out everywhere: every CLI token and web session of this person no longer works.',
  revoked,
});

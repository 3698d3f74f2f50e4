import type { ExchangeTokenRow, Role, UserRow } from '../db/tables.ts';
import type { PresentedExchangeToken } from './exchange-tokens.ts';
import { ApiError, badRequest, forbidden, unauthorized } from '../lib/errors.ts';
import { bool } from '../lib/json.ts';
import type { Actor } from './credentials.ts';
import { AREA_SCOPES, accepts, matrixRowOf, onFreePlanAllowList, scopeAreaOf, takesExchangeToken } from './method-matrix.ts';

/**
 * Every authorization rule of the API, in one place: which role may do what (CONTRACT §3, the spec's "Roles"
 * table), which credentials act for a person, and the plan rules a credential passes on every request (the
 * spec's "Plan requirements for API keys" and the free-plan CLI allow-list). Services and route guards ask
 * here; none compares a role itself. policy.test.ts is the table of all of it.
 *
 * A new rule is one line in ALLOWED (and one row in the test). Rules that also depend on the object (is it
 * the caller's own?) are named predicates below, built on `can`.
 *
 * Each rule names the roles allowed and the credentials that may use them. A credential never grants more than
 * its owner's role, and some grant less: an agent key and an organization key act for no person, and a key with
 * explicit scopes is narrowed on purpose (it calls only the areas its scopes name: `scopeRefusal`). None of them GOVERNS the organization: its settings, who belongs
 * to it and with which role, its credentials, its exchange tokens, and where its data is sent (webhooks,
 * workflows, the delivery log). Those take a credential that is the person with nothing taken away: a personal
 * key without explicit scopes, or a CLI token. Otherwise (ANY) a credential does what its owner's role allows.
 */
const ADMINS = ['admin'] as const satisfies readonly Role[];
const MANAGERS = ['admin', 'manager'] as const satisfies readonly Role[];
/** Every credential whose owner's role allows the action. */
const ANY = 'any';
/** Only a personal key without explicit scopes, or a CLI token (`governs`). */
const GOVERNS = 'governs';

interface Rule {
  roles: readonly Role[];
  credential: typeof ANY | typeof GOVERNS;
}

const ALLOWED = {
  // Organization settings: the organization itself, its webhooks, the log of its outbound deliveries.
  'organization.update': { roles: ADMINS, credential: GOVERNS },
  'webhooks.manage': { roles: ADMINS, credential: GOVERNS },
  'deliveries.manage': { roles: ADMINS, credential: GOVERNS },
  // API keys (spec "Roles"): admins list, regenerate and delete every key of the organization and create agent
  // keys and keys for others; everyone else works with their own personal keys only.
  'api_keys.manage_all': { roles: ADMINS, credential: GOVERNS },
  'api_keys.create_agent_key': { roles: ADMINS, credential: GOVERNS },
  'api_keys.create_organization_key': { roles: ADMINS, credential: GOVERNS },
  'api_keys.create_for_others': { roles: ADMINS, credential: GOVERNS },
  // People: admins and managers see everyone (pending invitations too) and invite; members see the directory of
  // active people; guests see only themselves. Admins change other people, roles and activation, see every
  // e-mail address and invite admins.
  'users.see_everyone': { roles: MANAGERS, credential: ANY },
  'users.see_directory': { roles: ['admin', 'manager', 'member'], credential: ANY },
  'users.see_any_email': { roles: ADMINS, credential: ANY },
  'users.manage': { roles: ADMINS, credential: GOVERNS },
  'users.invite': { roles: MANAGERS, credential: GOVERNS },
  'users.invite_admin': { roles: ADMINS, credential: GOVERNS },
  // Teams and check-ins: admins and managers see and set up all of them; others the ones they belong to.
  'teams.see_all': { roles: MANAGERS, credential: ANY },
  'teams.manage': { roles: MANAGERS, credential: ANY },
  'checkins.see_all': { roles: MANAGERS, credential: ANY },
  'checkins.manage': { roles: MANAGERS, credential: ANY },
  // Responses: admins and managers read every check-in's; others as `responsesReadBy` says.
  'checkins.read_all_responses': { roles: MANAGERS, credential: ANY },
  'mood.see_summary': { roles: MANAGERS, credential: ANY },
  // Insights (participation, streaks, aggregated answers): admins and managers see everyone's; others their own.
  'checkins.see_insights': { roles: MANAGERS, credential: ANY },
  // Kudos: everyone but guests sees the organization's kudos (guests: those they gave or received); admins see
  // the organization list with giver filters, set the daily limit and keep the company values.
  'kudos.see_all': { roles: ['admin', 'manager', 'member'], credential: ANY },
  'kudos.see_organization': { roles: ADMINS, credential: ANY },
  'kudos.manage_settings': { roles: ADMINS, credential: GOVERNS },
  'company_values.manage': { roles: ADMINS, credential: GOVERNS },
  // Forms: admins and managers create them; admins see and edit every form (owners edit theirs). A transition
  // open to "manager" is open to admins and managers.
  'forms.create': { roles: MANAGERS, credential: ANY },
  'forms.manage_all': { roles: ADMINS, credential: ANY },
  'forms.transition_as_manager': { roles: MANAGERS, credential: ANY },
  // Workflows: admins define them; everyone reads them and triggers the api_trigger ones.
  'workflows.manage': { roles: ADMINS, credential: GOVERNS },
  // Plan (beta): everyone but guests uses it; admins see and manage every board and project, and delete any
  // project update. Other members manage what they are managers of (canManagePlanContainer).
  'plan.use': { roles: ['admin', 'manager', 'member'], credential: ANY },
  'plan.manage_all': { roles: ADMINS, credential: ANY },
  // Exchange tokens (spec "Exchange token"): an admin's credential gets one for a member, and only an admin's
  // credential can present one.
  'exchange_tokens.issue': { roles: ADMINS, credential: GOVERNS },
  'exchange_tokens.use': { roles: ADMINS, credential: GOVERNS },
  'exchange_tokens.read_audit': { roles: ADMINS, credential: GOVERNS },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof ALLOWED;

/** Whether the caller may take `action`: its owner's role allows it, and its credential may use that. */
export function can(actor: Actor, action: Action): boolean {
  return roleMay(actor.user.role, action) && credentialMay(actor, action);
}

/** Whether a role allows `action` (for rules about someone other than the caller). */
export function roleMay(role: Role, action: Action): boolean {
  return (ALLOWED[action].roles as readonly Role[]).includes(role);
}

/** Whether the kind of credential may use `action` (its owner's role aside). */
export function credentialMay(actor: Actor, action: Action): boolean {
  return ALLOWED[action].credential === ANY || governs(actor);
}

/**
 * A credential that may govern the organization: it acts as its person (a personal key or a CLI token) and
 * carries no explicit scopes. An exchange token's request never governs (it acts for a member on two writes).
 */
export const governs = (actor: Actor): boolean => actsAsPerson(actor) && actor.credential.scopes.length === 0 && !actor.credential.exchange;

/** The actions a credential that does not govern may not take, whatever its owner's role (policy.test.ts lists them). */
export const GOVERNING_ACTIONS = (Object.keys(ALLOWED) as Action[]).filter((action) => ALLOWED[action].credential === GOVERNS);

/** Every action the policy knows (its table test covers each). */
export const ACTIONS = Object.keys(ALLOWED) as Action[];

/** The spec's answer when the role does not allow `action`: who would have been allowed decides the code. */
export function roleRefusal(action: Action, detail?: string): ApiError {
  const roles: readonly Role[] = ALLOWED[action].roles;
  if (!roles.includes('manager')) return forbidden('org_admin_required', detail ?? 'Only organization admins can do this.');
  if (!roles.includes('member')) return forbidden('org_manager_required', detail ?? 'Only organization admins and managers can do this.');
  return forbidden('guest_not_allowed', detail ?? 'Guest accounts cannot do this.');
}

/** 403 `insufficient_scope` (the spec's code for a credential that lacks what the endpoint needs). */
export const credentialRefusal = (): ApiError =>
  forbidden(
    'insufficient_scope',
    'Agent keys, organization keys and keys with explicit scopes cannot change the organization, its people or its credentials; use a personal key without scopes or the command-line client.',
  );

/**
 * Why the caller may not take `action`, or null: the role's refusal first (the spec's code for who would have
 * been allowed, with `roleDetail` as its text when given), then the credential's.
 */
export function refusal(actor: Actor, action: Action, roleDetail?: string): ApiError | null {
  if (!roleMay(actor.user.role, action)) return roleRefusal(action, roleDetail);
  if (!credentialMay(actor, action)) return credentialRefusal();
  return null;
}

/** Throws the spec's refusal unless the caller may take `action` (see `refusal`). */
export function assertCan(actor: Actor, action: Action, roleDetail?: string): void {
  const refused = refusal(actor, action, roleDetail);
  if (refused) throw refused;
}

/** E-mail addresses are shown to admins, and to each person their own. */
export const canSeeEmailOf = (actor: Actor, user: { uuid: string }): boolean => user.uuid === actor.user.uuid || can(actor, 'users.see_any_email');

/**
 * Whose responses of a check-in the caller reads: `all` or only their `own`. Admins and managers read every
 * check-in's. A participant reads all of that check-in's, as its team report (sent to the report channels or
 * e-mailed to every participant) already shows them, unless its `privacy` is `private`; anyone else reads only
 * their own. An anonymous check-in hides authors either way (the responses service).
 */
export function responsesReadBy(actor: Actor, checkin: { privacy: string | null }, participant: boolean): 'all' | 'own' {
  if (can(actor, 'checkins.read_all_responses')) return 'all';
  return participant && checkin.privacy !== 'private' ? 'all' : 'own';
}

/**
 * Whose numbers a check-in's or a team's insights (and its answers export) show the caller: admins and managers
 * everyone's; anyone else only their own, whatever the check-in's privacy (a participant who reads the team's
 * report still sees only their own participation and streaks).
 */
export const insightsReadBy = (actor: Actor): 'all' | 'own' => (can(actor, 'checkins.see_insights') ? 'all' : 'own');

/**
 * Why the caller may not change `user`, or null: everyone edits their own profile (with a credential that acts
 * as them); only admins change other people, roles and activation (with a credential that governs).
 */
export function userUpdateRefusal(actor: Actor, user: { uuid: string }, adminFields: boolean): ApiError | null {
  const self = user.uuid === actor.user.uuid;
  if (self && !adminFields) return actsAsPerson(actor) ? null : forbidden('insufficient_scope', 'Agent and organization keys do not act as a person; use a personal key.');
  return refusal(actor, 'users.manage', self ? 'Only organization admins can change roles or deactivate users.' : 'Only organization admins can change another user.');
}

export const canUpdateUser = (actor: Actor, user: { uuid: string }, adminFields: boolean): boolean => userUpdateRefusal(actor, user, adminFields) === null;

/**
 * Personal keys and CLI tokens act as their owner; agent and organization keys act for no person, so they may
 * not answer check-ins, track a mood, manage keys or claim agents.
 */
export const actsAsPerson = (actor: Actor): boolean => actor.credential.kind === 'bearer' || actor.credential.keyKind === 'personal';

/** 403 `insufficient_scope` (spec Plan credentials) for a credential that acts for no person. */
export function assertPerson(actor: Actor, detail = 'Agent and organization keys do not act as a person; use a personal key.'): void {
  if (!actsAsPerson(actor)) throw forbidden('insufficient_scope', detail);
}

/** 400 `actor_required` (spec 400 table): the call needs a person but the credential is an agent or organization key. */
export function assertActor(actor: Actor, detail: string): void {
  if (!actsAsPerson(actor)) throw badRequest('actor_required', detail);
}

/** What an endpoint declares with authenticate(); which credentials it takes is the method matrix's (method-matrix.ts). */
export interface Admission {
  /** Plan-check refusals are 403 on the general surface and 401 under /v1/plan/ (the spec states both). */
  surface?: 'general' | 'plan';
}

/** The request as admission sees it: the method and the path (the matrix and the allow-list are keyed by them). */
export interface RequestLine {
  method: string;
  path: string;
}

/** API-key plan rules: the spec's "Plan requirements for API keys" table, in its order. */
function planRefusal(actor: Actor): { code: string; detail: string } | null {
  if (!bool(actor.user.is_active)) {
    return { code: 'api_key_owner_inactive', detail: 'The owner of this API key is deactivated.' };
  }
  if (actor.organization.plan === 'free') {
    return { code: 'plan_free_api_keys_forbidden', detail: 'API keys are not available on the free plan.' };
  }
  if (actor.organization.plan === 'basic') {
    return { code: 'plan_missing_core_api_integrations', detail: 'Your plan does not include API access.' };
  }
  return null;
}

/**
 * Why a resolved credential may not call an endpoint, or null when it may: the credential kinds the method
 * matrix gives the path, then the plan rules (for API keys the spec's plan requirements, for a free-plan
 * organization's CLI tokens the allow-list), then a key's explicit scopes. Runs on every authenticated request (no
 * allocation when it admits).
 */
export function admissionRefusal(actor: Actor, admission: Admission, request: RequestLine): ApiError | null {
  return kindOrPlanRefusal(actor, admission, request) ?? scopeRefusal(actor, request);
}

function kindOrPlanRefusal(actor: Actor, admission: Admission, request: RequestLine): ApiError | null {
  const kind = actor.credential.kind;
  if (!accepts(matrixRowOf(request.path), kind)) {
    return forbidden(
      'credential_not_accepted',
      kind === 'api_key' ? 'This endpoint does not accept API keys; sign in with the command-line client.' : 'This endpoint accepts API keys only.',
    );
  }
  if (kind === 'api_key') {
    // A self-registered agent's key (a free-plan organization it owns until claimed, CONTRACT §6) may call the
    // endpoints the free plan allows; no other API key works on the free plan.
    const selfRegisteredAgent = actor.credential.keyKind === 'agent' && actor.organization.plan === 'free' && onFreePlanAllowList(request.method, request.path);
    const refusal = selfRegisteredAgent && bool(actor.user.is_active) ? null : planRefusal(actor);
    return refusal ? new ApiError(admission.surface === 'plan' ? 401 : 403, refusal.code, refusal.detail) : null;
  }
  if (actor.organization.plan === 'free' && !onFreePlanAllowList(request.method, request.path)) {
    return forbidden('plan_upgrade_required', 'This endpoint is not available on the free plan.');
  }
  return null;
}

/**
 * Plan scopes a key row may carry (spec "Plan credentials"). Each covers the ones before it: tasks:admin ⊇
 * tasks:write ⊇ tasks:read. A credential with no explicit scopes (every CLI token, most keys) may call every
 * Plan endpoint its owner's role allows.
 */
export const PLAN_SCOPES = ['tasks:read', 'tasks:write', 'tasks:admin'] as const;
export type PlanScope = (typeof PLAN_SCOPES)[number];

/**
 * Every scope a key may carry: the Plan's, and one per other area (`checkins`, `kudos`, `agents`, `email`; which
 * routes each covers is `SCOPE_AREAS` of method-matrix.ts). A key with explicit scopes calls only what they cover.
 */
export const SCOPES = [...PLAN_SCOPES, ...AREA_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];

/** Whether `granted` (explicit scopes) covers `scope`: the same scope, or for the Plan a wider one. */
function covers(granted: readonly string[], scope: string): boolean {
  const needed = PLAN_SCOPES.indexOf(scope as PlanScope);
  return granted.includes(scope) || (needed >= 0 && granted.some((g) => PLAN_SCOPES.indexOf(g as PlanScope) >= needed));
}

/** Whether the credential's explicit scopes cover `scope`. */
export function hasPlanScope(actor: Actor, scope: PlanScope): boolean {
  const granted = actor.credential.scopes;
  return granted.length === 0 || covers(granted, scope);
}

/** 403 `insufficient_scope` naming the scope the key lacks (`extra.required_scope`), the same in every area. */
export const missingScope = (scope: Scope): ApiError =>
  new ApiError(403, 'insufficient_scope', `This key's scopes do not include ${scope}.`, { extra: { required_scope: scope } });

/**
 * Why a key with explicit scopes may not call this endpoint, or null: its area's scope is not among them, or no
 * scope covers the endpoint at all (only a credential without scopes calls it). The Plan's scopes are asked per
 * operation by the Plan gate (http/plan/gate.ts), after its beta and person checks.
 */
export function scopeRefusal(actor: Actor, request: RequestLine): ApiError | null {
  const granted = actor.credential.scopes;
  if (granted.length === 0) return null;
  const area = scopeAreaOf(request.method, request.path);
  if (area === null) {
    return forbidden('insufficient_scope', `No scope covers this endpoint; a key with explicit scopes (${granted.join(', ')}) cannot call it. Use a key without scopes or the command-line client.`);
  }
  if (area.scope === 'any' || area.scope === 'tasks' || granted.includes(area.scope)) return null;
  return missingScope(area.scope);
}

/** Whether the caller's credential holds everything `scopes` grants (an empty list grants every scope, which only a credential without scopes holds). */
export function holdsScopes(actor: Actor, scopes: readonly string[]): boolean {
  const granted = actor.credential.scopes;
  return granted.length === 0 || (scopes.length > 0 && scopes.every((scope) => covers(granted, scope)));
}

/**
 * API keys: a credential never hands out more than it holds. Creating a key takes a credential that governs (a
 * key with explicit scopes, an agent or an organization key mints nothing: the new key would hold more than
 * it); giving a key scopes, regenerating a key (its new secret is that key's authority) or deleting one takes a
 * credential that holds every scope that key carries or will carry. 403 `insufficient_scope` otherwise.
 */
export function assertMayCreateKeys(actor: Actor): void {
  assertPerson(actor, 'Agent and organization keys cannot manage API keys.');
  if (!governs(actor)) throw forbidden('insufficient_scope', 'A key with explicit scopes cannot create keys; use a personal key without scopes or the command-line client.');
}

export function assertHoldsScopes(actor: Actor, scopes: readonly string[], what: 'give' | 'regenerate' | 'delete'): void {
  if (holdsScopes(actor, scopes)) return;
  const own = `This key's scopes (${actor.credential.scopes.join(', ')})`;
  throw forbidden(
    'insufficient_scope',
    what === 'give'
      ? `${own} do not cover ${scopes.length ? scopes.join(', ') : 'every scope (a key without scopes)'}; a key cannot grant more than it holds.`
      : what === 'regenerate'
        ? `${own} do not cover the key it would regenerate; a key cannot obtain a secret that holds more than it does.`
        : `${own} do not cover the key it would delete; a key acts only within its scopes.`,
  );
}

/** The Plan scopes the credential holds in effect (GET /v1/plan/entitlements/ shows them). */
export const planScopes = (actor: Actor): PlanScope[] => PLAN_SCOPES.filter((scope) => hasPlanScope(actor, scope));

/** An agent key is the agent itself: it names no other in X-Service-Agent-Name. */
export const isAgentKey = (actor: Actor): boolean => actor.credential.keyKind === 'agent';

/** A Plan board or project is visible when org-wide, to its members, and to admins. */
export const canSeePlanContainer = (actor: Actor, visibility: string, memberRole: string | null): boolean =>
  visibility === 'org' || memberRole !== null || can(actor, 'plan.manage_all');

/**
 * Whether a person, by their role and membership, sees a board or project: who may own a task on it or take
 * part in one (its mentionables).
 */
export const personSeesPlanContainer = (role: Role, visibility: string, isMember: boolean): boolean =>
  roleMay(role, 'plan.use') && (visibility === 'org' || isMember || roleMay(role, 'plan.manage_all'));

/** A task is deleted by its creator, the board's managers and the admins; everyone who sees it edits it. */
export const canDeletePlanTask = (actor: Actor, memberRole: string | null, createdBy: string | null): boolean =>
  canManagePlanContainer(actor, memberRole) || (createdBy !== null && createdBy === actor.user.uuid);

/** Its managers and the admins manage a board or project. */
export const canManagePlanContainer = (actor: Actor, memberRole: string | null): boolean => can(actor, 'plan.manage_all') || memberRole === 'manager';

/**
 * Who a Plan minute ceiling and an Idempotency-Key belong to: the person for personal keys and CLI tokens (all
 * of a person's credentials share one budget), the credential itself for agent and organization keys.
 */
export const planActorId = (actor: Actor): string => (actsAsPerson(actor) ? actor.user.uuid : actor.credential.uuid);

/**
 * Why an exchange token may not make this request act as its member, or null when it may: the endpoint must be
 * one of the writes the spec names (kudos, check-in responses), the presenting credential one that governs
 * (a personal key without scopes or a CLI token) of the admin who was issued the token, in an organization that
 * has exchange tokens on (as stored now), its member active and the token live. A token may be presented any
 * number of times within its 300 seconds (a check-in answered by proxy is often a POST then a PUT); each use
 * is audited.
 */
export function exchangeRefusal(actor: Actor, request: RequestLine, token: PresentedExchangeToken | null, now: Date): ApiError | null {
  if (!takesExchangeToken(request.method, request.path)) {
    return forbidden('exchange_token_not_accepted', 'X-Exchange-Token acts only for giving kudos and for check-in responses.');
  }
  const refused = refusal(actor, 'exchange_tokens.use');
  if (refused) return refused;
  // Only the admin who asked for it presents it (with any credential of theirs that governs); to anyone else it
  // is as unknown as another organization's.
  if (!token || token.row.organization_uuid !== actor.organization.uuid || token.row.issued_by_uuid !== actor.user.uuid) return unauthorized('invalid_credentials');
  if (!token.exchangeEnabled) return forbidden('exchange_tokens_disabled', 'Exchange tokens are off for this organization; an operator turns them on.');
  if (!token.member || !bool(token.member.is_active)) return unauthorized('invalid_credentials');
  if (token.row.expires_at <= now.toISOString()) return unauthorized('credential_expired');
  return null;
}

/** The actor an exchange token makes of the presenting admin's request: the member, as a person. */
export function actingAs(actor: Actor, token: ExchangeTokenRow, member: UserRow): Actor {
  return {
    user: member,
    organization: actor.organization,
    credential: {
      ...actor.credential,
      keyKind: actor.credential.kind === 'api_key' ? 'personal' : null,
      exchange: { tokenUuid: token.uuid, issuedByUuid: token.issued_by_uuid },
    },
  };
}

import { describe, expect, it } from 'vitest';
import type { KeyKind, OrganizationRow, PlanName, Role } from '../db/tables.ts';
import { ROLES } from '../db/tables.ts';
import type { Actor, CredentialKind } from './credentials.ts';
import {
  ACTIONS, GOVERNING_ACTIONS, actsAsPerson, admissionRefusal, assertMayCreateKeys, can, canManagePlanContainer, canSeeEmailOf, canSeePlanContainer,
  canUpdateUser, governs, responsesReadBy, hasPlanScope, holdsScopes, isAgentKey, planActorId, planScopes, refusal, roleMay, roleRefusal,
} from './policy.ts';
import type { Action, Admission } from './policy.ts';

const SELF = '0190c8f4-0000-7000-8000-00000000000a';
const OTHER = '0190c8f4-0000-7000-8000-00000000000b';

function actor(role: Role, options: { kind?: CredentialKind; keyKind?: KeyKind | null; plan?: PlanName; active?: boolean; scopes?: string[] } = {}): Actor {
  const kind = options.kind ?? 'api_key';
  const organization: OrganizationRow = {
    uuid: '0190c8f4-0000-7000-8000-000000000001', name: 'Acme', slug: 'acme', timezone: 'UTC', plan: options.plan ?? 'pro',
    plan_beta_enabled: false, exchange_enabled: false, image: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
  };
  return {
    organization,
    user: {
      uuid: SELF, organization_uuid: organization.uuid, email: 'ada@acme.test', first_name: 'Ada', last_name: '', role, is_active: options.active ?? true,
      timezone: null, occupation: null, image: null, language: null, holiday_calendar: null, notifications: null, created_at: organization.created_at, updated_at: organization.updated_at,
    },
    credential: { kind, uuid: '0190c8f4-0000-7000-8000-0000000000c1', keyKind: kind === 'bearer' ? null : (options.keyKind ?? 'personal'), scopes: options.scopes ?? [], expiresAt: null },
  };
}

/**
 * Each rule: the roles that may, in the order admin, manager, member, guest; then which credentials may use it:
 * `any` every credential of such a person, `governs` only a personal key without explicit scopes or a CLI token
 * (never an agent key, an organization key or a scoped key, whatever the owner's role).
 */
const RULES: [Action, boolean, boolean, boolean, boolean, 'any' | 'governs'][] = [
  ['organization.update', true, false, false, false, 'governs'],
  ['webhooks.manage', true, false, false, false, 'governs'],
  ['deliveries.manage', true, false, false, false, 'governs'],
  ['api_keys.manage_all', true, false, false, false, 'governs'],
  ['api_keys.create_agent_key', true, false, false, false, 'governs'],
  ['api_keys.create_organization_key', true, false, false, false, 'governs'],
  ['api_keys.create_for_others', true, false, false, false, 'governs'],
  ['users.see_everyone', true, true, false, false, 'any'],
  ['users.see_directory', true, true, true, false, 'any'],
  ['users.see_any_email', true, false, false, false, 'any'],
  ['users.manage', true, false, false, false, 'governs'],
  ['users.invite', true, true, false, false, 'governs'],
  ['users.invite_admin', true, false, false, false, 'governs'],
  ['teams.see_all', true, true, false, false, 'any'],
  ['teams.manage', true, true, false, false, 'any'],
  ['checkins.see_all', true, true, false, false, 'any'],
  ['checkins.manage', true, true, false, false, 'any'],
  ['checkins.read_all_responses', true, true, false, false, 'any'],
  ['mood.see_summary', true, true, false, false, 'any'],
  ['checkins.see_insights', true, true, false, false, 'any'],
  ['kudos.see_all', true, true, true, false, 'any'],
  ['kudos.see_organization', true, false, false, false, 'any'],
  ['kudos.manage_settings', true, false, false, false, 'governs'],
  ['company_values.manage', true, false, false, false, 'governs'],
  ['forms.create', true, true, false, false, 'any'],
  ['forms.manage_all', true, false, false, false, 'any'],
  ['forms.transition_as_manager', true, true, false, false, 'any'],
  ['workflows.manage', true, false, false, false, 'governs'],
  ['plan.use', true, true, true, false, 'any'],
  ['plan.manage_all', true, false, false, false, 'any'],
  ['exchange_tokens.issue', true, false, false, false, 'governs'],
  ['exchange_tokens.use', true, false, false, false, 'governs'],
  ['exchange_tokens.read_audit', true, false, false, false, 'governs'],
];

describe('the authorization policy', () => {
  it.each(RULES)('%s: admin %s, manager %s, member %s, guest %s; credentials: %s', (action, admin, manager, member, guest, credentials) => {
    expect(ROLES.map((role) => can(actor(role), action))).toEqual([admin, manager, member, guest]);
    expect(ROLES.map((role) => can(actor(role, { kind: 'bearer' }), action))).toEqual([admin, manager, member, guest]);
    const governs = credentials === 'governs';
    for (const role of ROLES.filter((r) => roleMay(r, action))) {
      for (const restricted of [actor(role, { keyKind: 'agent' }), actor(role, { keyKind: 'organization' }), actor(role, { scopes: ['tasks:admin'] })]) {
        expect([action, role, restricted.credential.keyKind, restricted.credential.scopes, can(restricted, action)]).toEqual([action, role, restricted.credential.keyKind, restricted.credential.scopes, !governs]);
        if (governs) expect(refusal(restricted, action)).toMatchObject({ status: 403, code: 'insufficient_scope' });
      }
    }
    expect([...GOVERNING_ACTIONS].includes(action)).toBe(governs);
  });

  it('refuses by role first (the spec\'s codes), then by credential', () => {
    expect(refusal(actor('member', { keyKind: 'agent' }), 'organization.update')).toMatchObject({ status: 403, code: 'org_admin_required' });
    expect(refusal(actor('admin', { keyKind: 'agent' }), 'organization.update')).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(refusal(actor('admin'), 'organization.update')).toBeNull();
    expect(refusal(actor('admin', { kind: 'bearer' }), 'organization.update')).toBeNull();
    expect(governs(actor('admin', { scopes: ['tasks:read'] }))).toBe(false);
  });

  it('API keys: a credential hands out only the scopes it holds', () => {
    const holds = (scopes: string[], wanted: string[]) => holdsScopes(actor('member', { scopes }), wanted);
    expect(holds([], [])).toBe(true);
    expect(holds([], ['tasks:admin'])).toBe(true);
    expect(holds(['tasks:read'], [])).toBe(false);
    expect(holds(['tasks:read'], ['tasks:read'])).toBe(true);
    expect(holds(['tasks:read'], ['tasks:write'])).toBe(false);
    expect(holds(['tasks:write'], ['tasks:read'])).toBe(true);
    expect(holds(['tasks:admin'], [])).toBe(false);
    expect(holds(['tasks:admin'], ['tasks:read', 'tasks:admin'])).toBe(true);
    // The other areas' scopes are held as they are: none covers another, and none covers the Plan's.
    expect(holds(['kudos'], ['kudos'])).toBe(true);
    expect(holds(['kudos'], ['agents'])).toBe(false);
    expect(holds(['tasks:admin', 'kudos'], ['tasks:write', 'kudos'])).toBe(true);
    expect(holds(['tasks:admin', 'kudos'], ['kudos', 'email'])).toBe(false);
    expect(holds(['checkins'], ['tasks:read'])).toBe(false);
    expect(() => assertMayCreateKeys(actor('admin', { scopes: ['tasks:admin'] }))).toThrow(expect.objectContaining({ status: 403, code: 'insufficient_scope' }));
    expect(() => assertMayCreateKeys(actor('admin', { keyKind: 'agent' }))).toThrow(expect.objectContaining({ status: 403, code: 'insufficient_scope' }));
    expect(() => assertMayCreateKeys(actor('member'))).not.toThrow();
  });

  it('has a row above for every rule it holds', () => {
    expect(RULES.map(([action]) => action).sort()).toEqual([...ACTIONS].sort());
  });

  it('follows the spec\'s Roles table for API keys (Authentication → Roles)', () => {
    // | Role   | List                         | Create                                        | Regenerate or delete        | Scope              |
    // | Admin  | all keys of the organization | regular and agent keys; for_user_id allowed   | any key in the organization | whole organization |
    // | Member | own keys only                | regular self-owned keys only                  | own keys only               | self               |
    const row = (role: Role) => ({
      listsAllKeys: can(actor(role), 'api_keys.manage_all'),
      createsAgentKeys: can(actor(role), 'api_keys.create_agent_key'),
      createsForOthers: can(actor(role), 'api_keys.create_for_others'),
      managesAnyKey: can(actor(role), 'api_keys.manage_all'),
    });
    expect(row('admin')).toEqual({ listsAllKeys: true, createsAgentKeys: true, createsForOthers: true, managesAnyKey: true });
    const member = { listsAllKeys: false, createsAgentKeys: false, createsForOthers: false, managesAnyKey: false };
    // The table has admins and members; managers and guests hold keys as members do.
    for (const role of ['member', 'manager', 'guest'] as const) expect(row(role)).toEqual(member);
  });

  it('answers a refused role with the code of who would have been allowed', () => {
    expect(roleRefusal('webhooks.manage')).toMatchObject({ status: 403, code: 'org_admin_required', message: 'Only organization admins can do this.' });
    expect(roleRefusal('teams.manage')).toMatchObject({ status: 403, code: 'org_manager_required', message: 'Only organization admins and managers can do this.' });
    expect(roleRefusal('users.see_directory')).toMatchObject({ status: 403, code: 'guest_not_allowed' });
  });

  it('shows e-mail addresses to admins and to each person their own; people edit their own profile only', () => {
    for (const role of ROLES) {
      expect(canSeeEmailOf(actor(role), { uuid: SELF })).toBe(true);
      expect(canSeeEmailOf(actor(role), { uuid: OTHER })).toBe(role === 'admin');
      expect(canUpdateUser(actor(role), { uuid: SELF }, false)).toBe(true);
      expect(canUpdateUser(actor(role), { uuid: SELF }, true)).toBe(role === 'admin');
      expect(canUpdateUser(actor(role), { uuid: OTHER }, false)).toBe(role === 'admin');
      // An agent key acts for no person: not even its owner's profile.
      expect(canUpdateUser(actor(role, { keyKind: 'agent' }), { uuid: SELF }, false)).toBe(false);
      expect(canUpdateUser(actor(role, { scopes: ['tasks:read'] }), { uuid: SELF }, false)).toBe(true);
    }
  });

  it("reads a check-in's responses: managers all, participants all unless private, anyone else their own", () => {
    for (const role of ROLES) {
      const manages = role === 'admin' || role === 'manager';
      for (const privacy of [null, 'public', 'private']) {
        expect(responsesReadBy(actor(role), { privacy }, true)).toBe(manages || privacy !== 'private' ? 'all' : 'own');
        expect(responsesReadBy(actor(role), { privacy }, false)).toBe(manages ? 'all' : 'own');
      }
    }
  });

  it('lets personal keys and CLI tokens act as their owner, never agent or organization keys', () => {
    expect(actsAsPerson(actor('member', { keyKind: 'personal' }))).toBe(true);
    expect(actsAsPerson(actor('member', { kind: 'bearer' }))).toBe(true);
    expect(actsAsPerson(actor('admin', { keyKind: 'agent' }))).toBe(false);
    expect(actsAsPerson(actor('admin', { keyKind: 'organization' }))).toBe(false);
  });

  it('admits credentials by the spec\'s plan requirements, free-plan allow-list and method matrix', () => {
    const code = (a: Actor, line = 'GET /v1/users/', admission: Admission = {}) => {
      const [method, path] = line.split(' ');
      const refusal = admissionRefusal(a, admission, { method, path });
      return refusal ? `${refusal.status} ${refusal.code}` : 'admitted';
    };
    // Plan requirements for API keys, in the spec's order; 401 under /v1/plan/.
    expect(code(actor('admin', { active: false, plan: 'free' }))).toBe('403 api_key_owner_inactive');
    expect(code(actor('admin', { plan: 'free' }))).toBe('403 plan_free_api_keys_forbidden');
    expect(code(actor('admin', { plan: 'basic' }))).toBe('403 plan_missing_core_api_integrations');
    expect(code(actor('admin', { plan: 'basic' }), 'GET /v1/plan/boards/', { surface: 'plan' })).toBe('401 plan_missing_core_api_integrations');
    expect(code(actor('admin', { plan: 'pro' }))).toBe('admitted');
    expect(code(actor('admin', { plan: 'enterprise' }))).toBe('admitted');
    // Free-plan CLI tokens: the allow-list only, in any case of the path.
    expect(code(actor('member', { kind: 'bearer', plan: 'free' }))).toBe('403 plan_upgrade_required');
    expect(code(actor('member', { kind: 'bearer', plan: 'free' }), 'GET /v1/me/')).toBe('admitted');
    expect(code(actor('member', { kind: 'bearer', plan: 'free' }), 'GET /V1/ME/')).toBe('admitted');
    expect(code(actor('member', { kind: 'bearer', plan: 'free' }), 'POST /v1/me/')).toBe('403 plan_upgrade_required');
    // A self-registered agent's key on its free organization: the allow-list too, while its owner is active.
    expect(code(actor('admin', { keyKind: 'agent', plan: 'free' }), 'POST /v1/agent-reports/')).toBe('admitted');
    expect(code(actor('admin', { keyKind: 'agent', plan: 'free', active: false }), 'POST /v1/agent-reports/')).toBe('403 api_key_owner_inactive');
    expect(code(actor('admin', { keyKind: 'agent', plan: 'free' }))).toBe('403 plan_free_api_keys_forbidden');
    // Method matrix: /v1/platform/* takes API keys only; logout takes CLI tokens only; an upper-case path is the same path.
    expect(code(actor('admin', { kind: 'bearer' }), 'GET /v1/platform/status/')).toBe('403 credential_not_accepted');
    expect(code(actor('admin', { kind: 'bearer' }), 'GET /V1/Platform/status/')).toBe('403 credential_not_accepted');
    expect(code(actor('admin'), 'POST /v1/cli/auth/logout/')).toBe('403 credential_not_accepted');
    expect(code(actor('admin', { kind: 'bearer' }), 'POST /v1/cli/auth/logout/')).toBe('admitted');
    expect(code(actor('admin'), 'GET /v1/cli/auth/status/')).toBe('admitted');
    // The MCP endpoint is a way in: a free-plan CLI token and a self-registered agent connect; their tool calls meet the list.
    expect(code(actor('member', { kind: 'bearer', plan: 'free' }), 'POST /mcp')).toBe('admitted');
    expect(code(actor('admin', { keyKind: 'agent', plan: 'free' }), 'POST /mcp')).toBe('admitted');
    expect(code(actor('admin', { plan: 'free' }), 'POST /mcp')).toBe('403 plan_free_api_keys_forbidden');
    expect(code(actor('admin', { active: false }), 'POST /mcp')).toBe('403 api_key_owner_inactive');
  });

  it('keeps a key with explicit scopes within them, in every area; a key without scopes anywhere its role allows', () => {
    const code = (scopes: string[], line: string) => {
      const [method, path] = line.split(' ');
      const refusal = admissionRefusal(actor('admin', { scopes }), {}, { method, path });
      return refusal ? `${refusal.status} ${refusal.code} ${JSON.stringify(refusal.extra ?? null)}` : 'admitted';
    };
    expect(code([], 'POST /v1/teams/')).toBe('admitted');
    expect(code(['kudos'], 'POST /v1/kudos/')).toBe('admitted');
    expect(code(['kudos'], 'POST /V1/Kudos/')).toBe('admitted');
    expect(code(['kudos'], 'POST /v1/agent-reports/')).toBe('403 insufficient_scope {"required_scope":"agents"}');
    expect(code(['tasks:read'], 'POST /v1/send-email/')).toBe('403 insufficient_scope {"required_scope":"email"}');
    expect(code(['agents'], 'POST /v1/agent-email/send/')).toBe('403 insufficient_scope {"required_scope":"email"}');
    expect(code(['tasks:read'], 'PUT /v1/checkins/x/responses/')).toBe('403 insufficient_scope {"required_scope":"checkins"}');
    // The Plan's scopes are the Plan gate's, per operation; the directory is read by every key, not changed.
    expect(code(['kudos'], 'POST /v1/plan/tasks/')).toBe('admitted');
    expect(code(['kudos'], 'GET /v1/users/')).toBe('admitted');
    expect(code(['kudos'], 'HEAD /v1/teams/')).toBe('admitted');
    expect(code(['kudos'], 'PATCH /v1/users/x/')).toBe('403 insufficient_scope null');
    expect(code(['tasks:admin', 'checkins', 'kudos', 'agents', 'email'], 'POST /v1/send-message/')).toBe('403 insufficient_scope null');
    expect(code(['kudos'], 'GET /v1/me/')).toBe('admitted');
    expect(code(['kudos'], 'POST /mcp')).toBe('admitted');
  });

  it('Plan: scopes cover the ones before them; no explicit scope is every scope', () => {
    expect(planScopes(actor('member'))).toEqual(['tasks:read', 'tasks:write', 'tasks:admin']);
    expect(planScopes(actor('member', { scopes: ['tasks:read'] }))).toEqual(['tasks:read']);
    expect(planScopes(actor('member', { scopes: ['tasks:write'] }))).toEqual(['tasks:read', 'tasks:write']);
    expect(planScopes(actor('member', { scopes: ['tasks:admin'] }))).toEqual(['tasks:read', 'tasks:write', 'tasks:admin']);
    expect(hasPlanScope(actor('admin', { scopes: ['tasks:read'] }), 'tasks:write')).toBe(false);
  });

  it('Plan: who sees and manages a board or project, who acts, whose ceiling counts', () => {
    for (const role of ['admin', 'manager', 'member'] as const) {
      const admin = role === 'admin';
      expect([canSeePlanContainer(actor(role), 'org', null), canSeePlanContainer(actor(role), 'members', null), canSeePlanContainer(actor(role), 'members', 'member')]).toEqual([true, admin, true]);
      expect([canManagePlanContainer(actor(role), null), canManagePlanContainer(actor(role), 'member'), canManagePlanContainer(actor(role), 'manager')]).toEqual([admin, admin, true]);
    }
    expect(isAgentKey(actor('admin', { keyKind: 'agent' }))).toBe(true);
    expect(isAgentKey(actor('admin', { keyKind: 'organization' }))).toBe(false);
    expect(planActorId(actor('member'))).toBe(SELF);
    expect(planActorId(actor('member', { kind: 'bearer' }))).toBe(SELF);
    expect(planActorId(actor('admin', { keyKind: 'agent' }))).toBe('0190c8f4-0000-7000-8000-0000000000c1');
  });
});

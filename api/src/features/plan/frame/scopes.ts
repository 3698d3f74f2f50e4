/**
 * Plan scopes a key row may carry (spec "Plan credentials"). Each covers the ones below it:
 * tasks:admin ⊇ tasks:write ⊇ tasks:read. A credential with no explicit scopes (every CLI Bearer token, most keys)
 * may call every Plan endpoint its owner's role allows.
 */
export const PLAN_SCOPES = ['tasks:read', 'tasks:write', 'tasks:admin'] as const;
export type PlanScope = (typeof PLAN_SCOPES)[number];

const RANK: Record<PlanScope, number> = { 'tasks:read': 1, 'tasks:write': 2, 'tasks:admin': 3 };

export function scopeCovers(granted: readonly string[], needed: PlanScope): boolean {
  if (granted.length === 0) return true;
  return granted.some((scope) => Object.hasOwn(RANK, scope) && RANK[scope as PlanScope] >= RANK[needed]);
}

/**
 * The scope an operation needs unless its route says otherwise: reads tasks:read, writes tasks:write, every
 * DELETE tasks:admin. Boards (create, update, archive), states and members declare tasks:admin themselves.
 */
export function defaultScope(method: string): PlanScope {
  if (method === 'get') return 'tasks:read';
  if (method === 'delete') return 'tasks:admin';
  return 'tasks:write';
}

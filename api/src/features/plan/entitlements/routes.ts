import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { entitlements } from './service.ts';

export function entitlementRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: entitlements');
  r.read(
    {
      path: '/v1/plan/entitlements/',
      summary: 'What this organization and credential may use in Plan, its ceilings and usage (never 402)',
      betaExempt: true,
      response: 'PlanEntitlements',
    },
    (call) => entitlements(call, call.deps.config.planMinuteLimits),
  );
}

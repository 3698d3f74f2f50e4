import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { NOTIFICATION_CATALOG } from './catalog.ts';

export function notificationCatalogRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: channels and notifications');
  r.list(
    { path: '/v1/plan/notifications/catalog/', summary: 'The notification kinds (items carry key)', item: 'PlanNotificationKind' },
    async (call) => ({ count: NOTIFICATION_CATALOG.length, results: NOTIFICATION_CATALOG.slice(call.page.offset, call.page.offset + call.page.limit) }),
  );
}

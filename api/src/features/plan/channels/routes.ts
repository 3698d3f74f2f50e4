import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { CHANNEL_TYPES, chatAccess, listChannels } from './service.ts';

export function channelRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: channels and notifications');
  r.list(
    {
      path: '/v1/plan/channels/',
      summary: 'Chat channels of the connected platform (items carry external_id); type=channel: your personal destination',
      personQuery: { type: 'channel' },
      item: 'PlanChannel',
      query: [{ name: 'type', description: 'public, private, or channel (the caller\'s personal destination; needs a person)', schema: { enum: [...CHANNEL_TYPES] } }],
    },
    async (call) => {
      const channels = await listChannels(call, chatAccess(call.deps), call.query.oneOf('type', CHANNEL_TYPES));
      return { count: channels.length, results: channels.slice(call.page.offset, call.page.offset + call.page.limit) };
    },
  );
}

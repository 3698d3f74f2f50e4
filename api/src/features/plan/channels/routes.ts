import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { CHANNEL_TYPES, chatAccess, listChannels } from './service.ts';

export function channelRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: channels and notifications');
  r.list(
    {
      path: '/v1/plan/channels/',
      summary: 'Chat channels of the connected platform you may pick (items carry external_id): public ones, and private ones for admins',
      personQuery: { type: 'direct_message' },
      item: 'PlanChannel',
      query: [
        {
          name: 'type', schema: { enum: [...CHANNEL_TYPES] },
          description: 'channel or public (public channels: where a personal destination may be), private_channel or private, direct_message (your own; needs a person), group_chat (none)',
        },
        { name: 'search', description: 'names containing this text (case-insensitive)' },
      ],
    },
    async (call) => {
      const channels = await listChannels(call, chatAccess(call.deps), call.query.oneOf('type', CHANNEL_TYPES), call.query.text('search'));
      return { count: channels.length, results: channels.slice(call.page.offset, call.page.offset + call.page.limit) };
    },
  );
}

import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { meRoutes } from './routes.ts';

const { str } = fields;
const int = { type: 'integer' };
const date = { type: 'string', format: 'date' };
const task = { type: 'object', properties: { uuid: str, key: str, title: str, due_date: { type: ['string', 'null'] }, state: str } };

export const { operations, schemas } = planOpenApiPart(meRoutes, {
  PlanTaskCounts: {
    type: 'object',
    description: 'Your open tasks (owned by you, live, not in a done or canceled column), by due date in your time zone.',
    properties: { date, open: int, overdue: int, due_today: int, due_this_week: int, no_due_date: int, in_progress: int },
  },
  PlanRecents: {
    type: 'object',
    properties: { count: int, results: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/PlanBoard' }, { type: 'object', properties: { board: { type: 'string', format: 'uuid', description: 'the board\'s uuid again (the DailyBot client reads it here)' }, visited_at: { type: 'string', format: 'date-time' } } }] } } },
  },
  PlanBriefing: {
    type: 'object',
    properties: { enabled: { type: 'boolean' }, time: { ...str, description: 'HH:MM' }, timezone: str, weekdays: { type: 'array', items: int }, is_default: { type: 'boolean' } },
  },
  PlanBriefingDocument: {
    type: 'object',
    properties: {
      title: str, date, open: int, unread_notifications: int, text: str,
      sections: { type: 'array', items: { type: 'object', properties: { name: str, count: int, tasks: { type: 'array', items: task } } } },
    },
  },
  PlanNotificationPrefs: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            kind: str, name: str, default_enabled: { type: 'boolean' }, enabled: { type: 'boolean', description: 'false: not at all (inbox, e-mail, chat)' },
            chat: { type: 'boolean', description: 'by chat (off unless you turned it on)' }, email: { type: 'boolean', description: 'by e-mail (unless you chose, when the organization routes the kind to email)' },
          },
        },
      },
      destination: {
        description: 'where your chat notifications go: your direct messages, or a public channel (about members-only boards and projects: always direct messages)',
        oneOf: [
          { type: 'object', properties: { type: { const: 'dm' } } },
          { type: 'object', properties: { type: { const: 'channel' }, channel: { type: 'object', properties: { external_id: str, name: str } } } },
        ],
      },
      paused_until: { type: 'null' },
    },
  },
});

import { fields, planOpenApiPart } from '../../../http/plan/openapi.ts';
import { REPORT_KINDS } from '../../../db/tables.ts';
import { reportRoutes } from './routes.ts';

const { str, uuid, nullableStr, nullableUuid, nullableDateTime, dateTime, times } = fields;
const task = { type: 'object', properties: { key: str, title: str, owner: nullableStr, blocked_by: { type: 'array', items: str } } };
const tasks = { type: 'array', items: task };

export const { operations, schemas } = planOpenApiPart(reportRoutes, {
  PlanReportRun: {
    type: 'object',
    properties: {
      uuid: { type: 'string', format: 'uuid' },
      id: { type: 'string', format: 'uuid' },
      report: { type: 'string', format: 'uuid' },
      trigger: { type: 'string', enum: ['schedule', 'manual'] },
      status: { type: 'string', enum: ['enqueued'] },
      deliveries: { type: 'integer' },
      ran_at: { type: 'string', format: 'date-time' },
    },
  },
  PlanReportSchedule: {
    type: 'object',
    properties: {
      uuid, id: uuid, name: str, kind: { enum: [...REPORT_KINDS] }, enabled: { type: 'boolean' },
      weekdays: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 }, description: 'ISO weekdays, 1 = Monday' },
      time: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' }, timezone: str, channel: nullableStr,
      email_recipients: { type: ['array', 'null'], items: str },
      scope: { type: ['object', 'null'], properties: { boards: { type: 'array', items: uuid }, projects: { type: 'array', items: uuid } } },
      last_run_at: nullableDateTime, next_run_at: nullableDateTime, created_by: nullableUuid, ...times,
    },
  },
  PlanReport: {
    type: 'object',
    properties: {
      title: str, text: str, period: { type: 'object', properties: { from: dateTime, to: dateTime } },
      boards: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            board: { type: 'object', properties: { uuid, key: str, name: str } }, project: { type: ['object', 'null'], properties: { uuid, name: str } },
            done: tasks, in_progress: tasks, blocked: tasks,
          },
        },
      },
    },
  },
});

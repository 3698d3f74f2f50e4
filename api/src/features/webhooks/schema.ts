import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';

/** CONTRACT §7 event names; `tasks.*` (Plan) accepts any `tasks.<name>` and the wildcard itself. */
export const EVENTS = [
  'followups.response.completed',
  'followups.response.updated',
  'followups.response.deleted',
  'forms.response.created',
  'forms.response.updated',
  'forms.response.deleted',
  'kudos.posted',
  'organization.user_activated',
  'organization.user_deactivated',
  'organization.team_user_added',
  'organization.team_user_removed',
] as const;
const TASK_EVENT = /^tasks\.(\*|[a-z_]+(\.[a-z_]+)*)$/;
export const isKnownEvent = (name: string) => (EVENTS as readonly string[]).includes(name) || TASK_EVENT.test(name);

const eventName = () =>
  yup.string().test('event', 'Unknown event. Known events: ' + EVENTS.join(', ') + ', tasks.*.', (value) => value === undefined || isKnownEvent(value));

export const createSubscriptionSchema = yup.object({
  hook_url: yup.string().max(2048).required(),
  name: yup.string().trim().min(1).max(200),
  subscriptions: yup.array(eventName().required()).min(1).max(50).required(),
  subscribed_objects: yup.array(uuidField().required()).max(100),
  bearer: yup.string().min(1).max(1024).nullable(),
  secret: yup.string().min(8).max(1024).nullable(),
});
export type CreateSubscriptionInput = yup.InferType<typeof createSubscriptionSchema>;

export const deleteSubscriptionSchema = yup.object({
  hook_id: uuidField().required(),
});
export type DeleteSubscriptionInput = yup.InferType<typeof deleteSubscriptionSchema>;

export const sampleSchema = yup.object({
  event: eventName().required(),
  hook_id: uuidField(),
});
export type SampleInput = yup.InferType<typeof sampleSchema>;

import * as yup from 'yup';
import { headerValueField, uuidField } from '../../http/fields.ts';

export { EVENTS, isKnownEvent } from '../../outbox/events.ts';
import { EVENTS, isKnownEvent } from '../../outbox/events.ts';

const eventName = () =>
  yup.string().test('event', 'Unknown event. Known events: ' + EVENTS.join(', ') + ', tasks.*.', (value) => value === undefined || isKnownEvent(value));

export const createSubscriptionSchema = yup.object({
  hook_url: yup.string().max(2048).required(),
  name: yup.string().trim().min(1).max(200),
  subscriptions: yup.array(eventName().required()).min(1).max(50).required(),
  subscribed_objects: yup.array(uuidField().required()).max(100),
  bearer: headerValueField('X-BEARER').min(1).max(1024).nullable(),
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

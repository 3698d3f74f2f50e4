import * as yup from 'yup';
import { HEALTHS } from '../frame/schema.ts';

export { HEALTHS };
/** The spec's limit; longer bodies answer 400 update_body_too_long (checked by the service, with its code). */
export const UPDATE_BODY_MAX = 20_000;

export const createUpdateSchema = yup.object({
  body: yup.string().matches(/\S/, { message: 'Must not be blank.', excludeEmptyString: true }).required(),
  health: yup.string().oneOf(HEALTHS).nullable(),
});
export type CreateUpdateInput = yup.InferType<typeof createUpdateSchema>;

export const editUpdateSchema = yup.object({
  body: yup.string().matches(/\S/, { message: 'Must not be blank.', excludeEmptyString: true }),
  health: yup.string().oneOf(HEALTHS).nullable(),
});
export type EditUpdateInput = yup.InferType<typeof editUpdateSchema>;

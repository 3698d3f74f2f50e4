import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';

/** `scope`: the boards and projects a route (or a report) covers; absent or null for every org-visible one. */
export const scopeField = () =>
  yup
    .object({
      boards: yup.array(uuidField().required()).max(50),
      projects: yup.array(uuidField().required()).max(50),
    })
    .nullable()
    .default(undefined);

export const createRouteSchema = yup.object({
  kind: yup.string().max(64).required(),
  channel: yup.string().max(200).required(),
  scope: scopeField(),
});
export type CreateRouteInput = yup.InferType<typeof createRouteSchema>;

export const updateRouteSchema = yup.object({
  kind: yup.string().max(64),
  channel: yup.string().max(200),
  scope: scopeField(),
});
export type UpdateRouteInput = yup.InferType<typeof updateRouteSchema>;

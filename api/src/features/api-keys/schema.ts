import * as yup from 'yup';
import { dateTimeField, uuidField } from '../../http/fields.ts';
import { KEY_KINDS } from '../../db/tables.ts';
import { SCOPES } from '../../auth/policy.ts';

/** The scopes a key acts within (auth/policy.ts `SCOPES`); none: everything its owner's role allows. */
const scopes = yup.array(yup.string().oneOf(SCOPES).required()).max(SCOPES.length);

export const createKeySchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  kind: yup.string().oneOf(KEY_KINDS),
  is_agent_key: yup.boolean(),
  for_user_id: uuidField(),
  scopes,
  expires_at: dateTimeField().nullable(),
});
export type CreateKeyInput = yup.InferType<typeof createKeySchema>;

export const updateKeySchema = yup.object({
  name: yup.string().trim().min(1).max(200),
  scopes,
  regenerate: yup.boolean(),
});
export type UpdateKeyInput = yup.InferType<typeof updateKeySchema>;

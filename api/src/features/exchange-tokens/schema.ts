import * as yup from 'yup';
import { uuidField } from '../../http/fields.ts';

/** POST /v1/exchange-token/ `{user_uuid}` (CONTRACT §4). */
export const exchangeTokenSchema = yup.object({
  user_uuid: uuidField().required(),
});
export type ExchangeTokenInput = yup.InferType<typeof exchangeTokenSchema>;

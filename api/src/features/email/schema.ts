import * as yup from 'yup';
import { jsonObjectField } from '../../http/fields.ts';

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
export const MAX_RECIPIENTS = 50;

/** CONTRACT §7 `{to, subject, body_html, metadata?}`; `to` is one address or a list of up to 50. */
export const sendEmailSchema = yup.object({
  to: yup
    .mixed<string | string[]>()
    .required()
    .label('One e-mail address or a list of up to 50.')
    .test('recipients', 'Enter one e-mail address or a list of up to 50.', (value) => {
      const list = Array.isArray(value) ? value : [value];
      return list.length >= 1 && list.length <= MAX_RECIPIENTS && list.every((v) => typeof v === 'string' && v.length <= 254 && EMAIL.test(v));
    }),
  subject: yup.string().trim().min(1).max(512).required(),
  body_html: yup.string().min(1).max(512 * 1024).required(),
  metadata: jsonObjectField().nullable(),
});
export type SendEmailInput = yup.InferType<typeof sendEmailSchema>;

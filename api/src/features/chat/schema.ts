import * as yup from 'yup';
import { jsonObjectField, uuidField } from '../../http/fields.ts';

const button = yup.object({
  text: yup.string().trim().min(1).max(75).required(),
  url: yup.string().url().max(2048).required(),
  style: yup.string().oneOf(['primary', 'danger', 'default']),
});

export const sendMessageSchema = yup.object({
  message: yup.string().min(1).max(40_000),
  messages: yup.array(yup.string().min(1).max(40_000).required()).min(1).max(20),
  target_users: yup.array(uuidField().required()).max(500),
  target_channels: yup.array(yup.string().trim().min(1).max(200).required()).max(50),
  target_teams: yup.array(uuidField().required()).max(50),
  buttons: yup.array(button).max(10),
  thread_responses: yup.array(yup.string().min(1).max(40_000).required()).max(20),
  image_url: yup.string().url().max(2048),
  metadata: jsonObjectField().nullable(),
  bot_message_id: uuidField(),
  platform_settings: jsonObjectField().nullable(),
  skip_users_on_time_off: yup.boolean(),
  send_as_user: yup.boolean(),
});
export type SendMessageInput = yup.InferType<typeof sendMessageSchema>;

export const openConversationSchema = yup.object({
  users_uuids: yup.array(uuidField().required()).min(1).max(8).required(),
});
export type OpenConversationInput = yup.InferType<typeof openConversationSchema>;

import * as yup from 'yup';

/** POST /v1/me/chat-accounts/: the token of the link `/rollcall link` gave (Discord). */
export const linkChatAccountSchema = yup.object({
  token: yup.string().trim().required().max(64),
}).noUnknown();
export type LinkChatAccountInput = yup.InferType<typeof linkChatAccountSchema>;

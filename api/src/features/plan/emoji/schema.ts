import * as yup from 'yup';

/** `{emoji}`; whether it is one emoji is the service's check (400 reaction_invalid_emoji). */
export const reactionSchema = yup.object({ emoji: yup.string().required() });
export type ReactionInput = yup.InferType<typeof reactionSchema>;

import * as yup from 'yup';
import { dateField } from '../../http/fields.ts';

/** POST /v1/mood/track/ `{score (1–5), date?}` (CONTRACT §7). */
export const trackMoodSchema = yup.object({
  score: yup.number().integer().min(1).max(5).required(),
  date: dateField(),
});
export type TrackMoodInput = yup.InferType<typeof trackMoodSchema>;

import * as yup from 'yup';

/** Presign `{filename, content_type, size}` (CONTRACT §9): the upload that will follow, as its sender describes it. */
export const presignSchema = yup.object({
  filename: yup.string().trim().min(1).max(255).required(),
  content_type: yup.string().max(200).required(),
  size: yup.number().integer().min(0).required(),
});
export type PresignInput = yup.InferType<typeof presignSchema>;

/** The single multipart request's text fields besides `file`: a name to keep instead of the file's own. */
export const uploadFieldsSchema = yup.object({
  filename: yup.string().trim().min(1).max(255),
});
export type UploadFields = yup.InferType<typeof uploadFieldsSchema>;

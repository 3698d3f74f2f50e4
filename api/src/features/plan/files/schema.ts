import * as yup from 'yup';

/** Presign `{filename, content_type, size}` (CONTRACT §9): the upload that will follow, as its sender describes it. */
export const presignSchema = yup.object({
  filename: yup.string().trim().min(1).max(255).required(),
  content_type: yup.string().max(200).required(),
  size: yup.number().integer().min(0).required(),
});
export type PresignInput = yup.InferType<typeof presignSchema>;

/** The single multipart request's text fields besides `file`: a name to keep instead of the file's own, and a caption. */
export const uploadFieldsSchema = yup.object({
  filename: yup.string().trim().min(1).max(255),
  caption: yup.string().max(2000),
});

/** Renaming an attachment (PATCH): its file name, and/or its caption (null or "" clears it). */
export const renameSchema = yup.object({
  filename: yup.string().trim().min(1).max(255),
  caption: yup.string().max(2000).nullable(),
});
export type RenameInput = yup.InferType<typeof renameSchema>;
export type UploadFields = yup.InferType<typeof uploadFieldsSchema>;

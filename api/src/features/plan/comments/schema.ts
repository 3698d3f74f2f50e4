import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { uuidField } from '../../../http/fields.ts';

/** The spec's limit; longer bodies answer 400 comment_body_too_long (checked by the service, with its code). */
export const COMMENT_BODY_MAX = 10_000;

const body = () => yup.string().matches(/\S/, { message: 'Must not be blank.', excludeEmptyString: true });

/** `parent_comment` is the DailyBot client's name for `parent`. */
export const createCommentSchema = withAliases(
  yup.object({
    body: body().required(),
    /** A top-level comment of the same task: replies are one level deep. */
    parent: uuidField().nullable(),
  }),
  { parent_comment: 'parent' },
);
export type CreateCommentInput = yup.InferType<typeof createCommentSchema>;

export const editCommentSchema = yup.object({ body: body().required() });
export type EditCommentInput = yup.InferType<typeof editCommentSchema>;

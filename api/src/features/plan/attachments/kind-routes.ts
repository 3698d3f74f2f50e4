import type { PlanResource } from '../../../http/plan/registrar.ts';
import type { AttachableKind } from '../files/kinds.ts';
import { presentAttachment } from '../files/presenter.ts';
import { presignSchema, renameSchema, uploadFieldsSchema } from '../files/schema.ts';
import {
  ATTACHMENT_LIMIT, MULTIPART_MAX_BYTES, PRESIGNED_MAX_BYTES, checkUploaded, confirmUpload, deleteAttachment, discardUpload, finishUpload, getAttachment,
  listAttachments, openAttachment, presignUpload, receiveUpload, renameAttachment, tooLarge,
} from '../files/service.ts';

/**
 * The attachment routes of one kind of object, under `<object>/attachments/`: list, the single multipart upload
 * and/or presign → confirm, one attachment, its content, its removal. A feature whose objects take files declares
 * them with its kind (kinds.ts): `attachmentResource(taskAttachments, { presign: true })` in its feature's routers.
 */
export function attachmentResource(kind: AttachableKind, ways: { multipart?: boolean; presign?: boolean }): PlanResource {
  return (plan) => {
    const r = plan.tagged(kind.tag);
    const base = `${kind.path}/attachments/`;
    const keyParams = kind.keyParams;
    r.list({ path: base, keyParams, summary: `Files attached to the ${kind.noun}`, item: 'PlanAttachment' }, async (call) => {
      const { count, rows } = await listAttachments(call, kind, call.params, call.page);
      return { count, results: rows.map(presentAttachment) };
    });
    if (ways.multipart) {
      r.upload(
        {
          path: base, keyParams, maxBytes: MULTIPART_MAX_BYTES, fields: uploadFieldsSchema, status: 201, response: 'PlanAttachment',
          summary: `Attach a file to the ${kind.noun}: one multipart/form-data request, part "file", at most 5 MiB (attachment_too_large), ${ATTACHMENT_LIMIT} per ${kind.noun} (attachment_limit_reached)`,
        },
        {
          receive: (call, stream, file) => receiveUpload(call, call.deps.files, kind, stream, file),
          discard: (call, received) => discardUpload(call.db, received, call.now),
          tooLarge: () => tooLarge(MULTIPART_MAX_BYTES),
        },
        async (call) => presentAttachment(await finishUpload(call, kind, call.file, call.body)),
      );
    }
    if (ways.presign) {
      r.write(
        { method: 'post', path: `${base}presign/`, keyParams, body: presignSchema, status: 201, response: 'PlanPresignedUpload', summary: `Start an upload of at most ${PRESIGNED_MAX_BYTES / 1024 / 1024} MiB: PUT the bytes to upload_url before expires_at, then confirm` },
        (call) => presignUpload(call, kind, call.body, call.baseUrl),
      );
      r.write(
        {
          method: 'post', path: `${base}:attachment/confirm/`, keyParams, response: 'PlanAttachment',
          summary: 'Confirm an uploaded file: its content is checked (attachment_invalid_type); 409 attachment_not_ready before its bytes are in',
          prepare: (call) => checkUploaded(call, call.deps.files, kind, call.params.attachment),
        },
        async (call) => presentAttachment(await confirmUpload(call, kind, call.prepared)),
      );
    }
    r.read({ path: `${base}:attachment/`, keyParams, summary: 'One attachment', response: 'PlanAttachment' }, async (call) =>
      presentAttachment(await getAttachment(call, kind, call.params, call.params.attachment)),
    );
    r.download(
      { path: `${base}:attachment/content/`, keyParams, summary: 'The file (Content-Disposition: attachment; X-Content-Type-Options: nosniff); 409 attachment_not_ready before it is confirmed' },
      (call) => openAttachment(call, call.deps.files, kind, call.params.attachment),
    );
    r.write(
      { method: 'patch', path: `${base}:attachment/`, keyParams, body: renameSchema, response: 'PlanAttachment', summary: 'Rename an attachment or change its caption (who may remove it: attachment_delete_forbidden)' },
      async (call) => presentAttachment(await renameAttachment(call, kind, call.params.attachment, call.body)),
    );
    r.write(
      { method: 'delete', path: `${base}:attachment/`, keyParams, status: 204, summary: 'Remove an attachment (its uploader, the author of what it is on, or an admin: attachment_delete_forbidden)' },
      (call) => deleteAttachment(call, kind, call.params.attachment),
    );
  };
}

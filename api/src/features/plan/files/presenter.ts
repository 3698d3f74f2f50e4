import type { AttachmentRow } from '../../../db/tables.ts';
import { iso } from '../../../lib/time.ts';

export function presentAttachment(row: AttachmentRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    object_type: row.object_kind,
    object_uuid: row.object_uuid,
    filename: row.filename,
    caption: row.caption ?? null,
    content_type: row.content_type,
    kind: row.file_kind,
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    status: row.status,
    uploaded_by: row.uploader_uuid,
    created_at: iso(row.created_at),
    confirmed_at: iso(row.confirmed_at),
  };
}

/** The answer to a PUT of a presigned upload's bytes: stored, waiting for confirm. */
export function presentUpload(row: AttachmentRow) {
  return { attachment_uuid: row.uuid, status: 'uploaded', size: row.size === null ? null : Number(row.size), sha256: row.sha256 };
}

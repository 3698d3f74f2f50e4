import type { Readable } from 'node:stream';
import { can } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import type { AttachmentRow } from '../../../db/tables.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { randomBase62, safeEqual, sha256Hex } from '../../../lib/secrets.ts';
import { HEAD_BYTES } from '../../../outbound/files/index.ts';
import type { FileStore, StoredFile } from '../../../outbound/files/index.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import { orNull, visibleBoard, visibleProject } from '../frame/access.ts';
import { lockStreamOf } from '../frame/locks.ts';
import { ACCEPTED_TYPES, invalidType, sniff } from './content.ts';
import type { FileKind } from './content.ts';
import type { AttachableKind, AttachTarget } from './kinds.ts';
import { presentAttachment } from './presenter.ts';
import { attachmentsHeld, dropAttachments, trashKey } from './repository.ts';
import type { PresignInput, RenameInput } from './schema.ts';

/**
 * Attachments of Plan objects. Two ways in: one multipart request (comments, goals, projects, project updates;
 * 5 MiB), or presign → PUT the bytes to the answer's `upload_url` → confirm (tasks; 25 MiB). Either way the bytes
 * are streamed to the store before any transaction opens, the content decides the type (content.ts), and an
 * attachment is `pending` until then and `ready` after. 50 per object, pending uploads included.
 */
const MiB = 1024 * 1024;
export const MULTIPART_MAX_BYTES = 5 * MiB;
export const PRESIGNED_MAX_BYTES = 25 * MiB;
export const ATTACHMENT_LIMIT = 50;
/** How long an upload URL lives, and how long a multipart upload may take before the sweep drops it. */
export const PRESIGN_TTL_MS = 15 * 60_000;
const RECEIVE_TTL_MS = 60 * 60_000;

export const tooLarge = (max: number) => badRequest('attachment_too_large', `The file is larger than ${max} bytes (${max / MiB} MiB), the most this upload takes.`, { max_size_bytes: max });
const limitReached = () => badRequest('attachment_limit_reached', `This object already has ${ATTACHMENT_LIMIT} attachments.`, { limit: ATTACHMENT_LIMIT });
/** A Plan read or write with the path's ids (the object's, as the attachment routes name them). */
export type AttachmentRead = PlanRead & { params: Record<string, string> };
export type AttachmentWrite = PlanWrite & { params: Record<string, string> };

const notReady = () => conflict('attachment_not_ready', 'This attachment\'s upload is not completed and confirmed yet.');

async function attachable(r: PlanRead, kind: AttachableKind, params: Record<string, string>): Promise<AttachTarget> {
  const target = await kind.resolve(r, params);
  kind.assertMayAttach?.(r, target);
  return target;
}

async function assertRoom(db: Executor, kind: AttachableKind, target: AttachTarget, now: Date, except: string | null = null): Promise<void> {
  if ((await attachmentsHeld(db, kind.kind, target.uuid, now, except)) >= ATTACHMENT_LIMIT) throw limitReached();
}

async function attachmentOf(db: Executor, kind: AttachableKind, target: AttachTarget, uuid: string): Promise<AttachmentRow> {
  const row: AttachmentRow | undefined = await db('plan_attachments').where({ uuid }).first();
  if (!row || row.object_kind !== kind.kind || row.object_uuid !== target.uuid) throw notFound();
  return row;
}

export async function listAttachments(r: PlanRead, kind: AttachableKind, params: Record<string, string>, page: PageRequest) {
  const target = await kind.resolve(r, params);
  return pageOf<AttachmentRow>(() => r.db('plan_attachments').where({ object_kind: kind.kind, object_uuid: target.uuid, status: 'ready' }), page, (q) =>
    q.orderBy([{ column: 'created_at' }, { column: 'uuid' }]),
  );
}

export async function getAttachment(r: PlanRead, kind: AttachableKind, params: Record<string, string>, uuid: string): Promise<AttachmentRow> {
  return attachmentOf(r.db, kind, await kind.resolve(r, params), uuid);
}

function pendingRow(r: PlanRead, kind: AttachableKind, target: AttachTarget, file: { filename: string; declaredType: string; declaredSize?: number }, expiresMs: number): AttachmentRow {
  const uuid = uuidv7(r.now.getTime());
  return {
    uuid,
    organization_uuid: r.actor.organization.uuid,
    object_kind: kind.kind,
    object_uuid: target.uuid,
    board_uuid: target.board,
    project_uuid: target.project,
    uploader_uuid: r.actor.user.uuid,
    filename: file.filename.slice(0, 255) || 'file',
    declared_type: file.declaredType.slice(0, 200),
    content_type: null,
    file_kind: null,
    declared_size: file.declaredSize ?? null,
    size: null,
    sha256: null,
    storage_key: `${r.actor.organization.uuid}/${uuid}`,
    status: 'pending',
    upload_token_hash: null,
    expires_at: new Date(r.now.getTime() + expiresMs).toISOString(),
    uploaded_at: null,
    created_at: r.now.toISOString(),
    confirmed_at: null,
  };
}

/** A multipart upload's file, stored and checked, waiting for its transaction. */
export interface ReceivedFile {
  row: AttachmentRow;
  stored: StoredFile;
  type: FileKind;
  /** The Idempotency-Key fingerprint's part for the file. */
  digest: string;
}

/**
 * Takes a multipart request's file: checks the caller may attach here (before reading a byte), reserves a pending
 * row (so a crash mid-upload leaves something the sweep removes), streams the bytes to the store and checks their
 * type. Refused files are dropped.
 */
export async function receiveUpload(r: AttachmentRead, files: FileStore, kind: AttachableKind, stream: Readable, file: { filename: string; declaredType: string }): Promise<ReceivedFile> {
  const target = await attachable(r, kind, r.params);
  await assertRoom(r.db, kind, target, r.now);
  const row = pendingRow(r, kind, target, file, RECEIVE_TTL_MS);
  await r.db('plan_attachments').insert(row);
  let stored: StoredFile | null = null;
  try {
    stored = await files.put(row.storage_key, stream);
    const type = await sniff(stored.head, { filename: row.filename, contentType: row.declared_type });
    return { row, stored, type, digest: stored.sha256 };
  } catch (err) {
    await discardUpload(r.db, { row }, r.now);
    throw err;
  }
}

/** Drops a received file that will not be kept (refused, or its request replayed): the row, and the file by the sweep. */
export async function discardUpload(db: Executor, received: { row: AttachmentRow }, now: Date): Promise<void> {
  await trashKey(db, received.row.storage_key, now);
  await db('plan_attachments').where({ uuid: received.row.uuid, status: 'pending' }).delete();
}

async function makeReady(w: PlanWrite, row: AttachmentRow, content: { size: number; sha256: string; type: FileKind }): Promise<AttachmentRow> {
  const ready: AttachmentRow = {
    ...row, status: 'ready', size: content.size, sha256: content.sha256, content_type: content.type.contentType, file_kind: content.type.kind,
    uploaded_at: row.uploaded_at ?? w.now.toISOString(), confirmed_at: w.now.toISOString(), expires_at: null, upload_token_hash: null,
  };
  const written = await w.db('plan_attachments').where({ uuid: row.uuid, status: 'pending' }).update({
    status: 'ready', size: ready.size, sha256: ready.sha256, content_type: ready.content_type, file_kind: ready.file_kind,
    uploaded_at: ready.uploaded_at, confirmed_at: ready.confirmed_at, expires_at: null, upload_token_hash: null,
  });
  if (written === 0) throw notReady();
  await w.changes.record({ kind: 'attachment', uuid: row.uuid, change: 'created', board: row.board_uuid, project: row.project_uuid, snapshot: presentAttachment(ready) });
  return ready;
}

/** The multipart upload's transaction: still allowed, still room, then the attachment is ready. */
export async function finishUpload(w: AttachmentWrite, kind: AttachableKind, received: ReceivedFile, fields: { filename?: string; caption?: string }): Promise<AttachmentRow> {
  const target = await lockStreamOf(w, await attachable(w, kind, w.params));
  await assertRoom(w.db, kind, target, w.now, received.row.uuid);
  const named = { ...(fields.filename ? { filename: fields.filename } : {}), ...(fields.caption ? { caption: fields.caption } : {}) };
  const row = { ...received.row, ...named };
  if (Object.keys(named).length > 0) await w.db('plan_attachments').where({ uuid: row.uuid }).update(named);
  return makeReady(w, row, { size: received.stored.size, sha256: received.stored.sha256, type: received.type });
}

/** Presign: a pending attachment and a short-lived URL on this server to PUT its bytes to (the token in it is the permission). */
export async function presignUpload(w: AttachmentWrite, kind: AttachableKind, input: PresignInput, baseUrl: string) {
  const target = await attachable(w, kind, w.params);
  if (input.size > PRESIGNED_MAX_BYTES) throw tooLarge(PRESIGNED_MAX_BYTES);
  if (!ACCEPTED_TYPES.has(input.content_type.split(';')[0].trim().toLowerCase())) throw invalidType(input.content_type.slice(0, 200));
  await assertRoom(w.db, kind, target, w.now);
  const token = randomBase62(43);
  const row = { ...pendingRow(w, kind, target, { filename: input.filename, declaredType: input.content_type, declaredSize: input.size }, PRESIGN_TTL_MS), upload_token_hash: sha256Hex(token) };
  await w.db('plan_attachments').insert(row);
  // Under the task's own content path: the DailyBot client sends its bytes to this server only there (PUT or POST).
  const url = `${baseUrl}/v1/plan/tasks/${target.uuid}/attachments/${row.uuid}/content/?token=${token}`;
  // `attachment`: the reserved attachment itself, where the DailyBot client reads its uuid.
  return { attachment_uuid: row.uuid, attachment: presentAttachment(row as AttachmentRow), upload_url: url, method: 'PUT', headers: {}, expires_at: row.expires_at!, max_size_bytes: input.size };
}

/**
 * PUT to an upload URL: the bytes of a presigned attachment, streamed to the store. The URL is good for one
 * completed upload, until it expires (a broken upload may be sent again); anything else is 404. More bytes than
 * presigned: 400 attachment_too_large.
 *
 * Each PUT writes an object of its own (the row's key and a random suffix), never the key another PUT wrote: the
 * first PUT to finish claims the row (`uploaded_at` still empty) and names its object there; a PUT that finishes
 * later lost, its object goes to the trash and it answers 404. So the bytes confirm checks are the bytes that are
 * served, and nothing replaces them once an upload completed.
 */
export async function receivePut(
  db: Executor,
  files: FileStore,
  request: { uuid: string; token: string; length: number | null; body: (max: number) => Readable },
  now: Date,
): Promise<AttachmentRow> {
  const { uuid, token } = request;
  const row: AttachmentRow | undefined = await db('plan_attachments').where({ uuid }).first();
  if (!row || !openForUpload(row, token, now)) throw notFound();
  const max = Number(row.declared_size ?? PRESIGNED_MAX_BYTES);
  if (request.length !== null && request.length > max) throw tooLarge(max);
  const key = `${row.storage_key}.${randomBase62(16)}`;
  const stored = await files.put(key, request.body(max));
  const uploaded = { ...row, storage_key: key, size: stored.size, sha256: stored.sha256, uploaded_at: now.toISOString() };
  const claimed = await db('plan_attachments')
    .where({ uuid, status: 'pending', upload_token_hash: row.upload_token_hash })
    .whereNull('uploaded_at')
    .update({ storage_key: key, size: stored.size, sha256: stored.sha256, uploaded_at: uploaded.uploaded_at });
  if (claimed === 0) {
    await trashKey(db, key, now);
    throw notFound();
  }
  return uploaded;
}

/** A presigned attachment this token may still upload to: pending, not uploaded yet, not expired. */
function openForUpload(row: AttachmentRow, token: string, now: Date): boolean {
  return row.status === 'pending' && row.uploaded_at === null && !!row.upload_token_hash && safeEqual(sha256Hex(token), row.upload_token_hash) && (row.expires_at ?? '') > now.toISOString();
}

/** Before confirm's transaction: the bytes are there, and their content is an accepted type (read back from the store). */
export async function checkUploaded(r: AttachmentRead, files: FileStore, kind: AttachableKind, uuid: string): Promise<{ row: AttachmentRow; type: FileKind | null }> {
  const row = await attachmentOf(r.db, kind, await attachable(r, kind, r.params), uuid);
  if (row.status === 'ready') return { row, type: null };
  if (!row.uploaded_at || (row.expires_at ?? '') <= r.now.toISOString()) throw notReady();
  const head = Number(row.size) > 0 ? await files.head(row.storage_key, HEAD_BYTES) : Buffer.alloc(0);
  return { row, type: await sniff(head, { filename: row.filename, contentType: row.declared_type }) };
}

/** Confirm: the upload checked by checkUploaded becomes a ready attachment (confirming a ready one answers it again). */
export async function confirmUpload(w: AttachmentWrite, kind: AttachableKind, checked: { row: AttachmentRow; type: FileKind | null }): Promise<AttachmentRow> {
  const target = await lockStreamOf(w, await attachable(w, kind, w.params));
  const row = await attachmentOf(w.db, kind, target, checked.row.uuid);
  if (row.status === 'ready') return row;
  // The object checked is the one the row names (an upload's object is written once, and the row names it once).
  if (!checked.type || row.storage_key !== checked.row.storage_key || row.uploaded_at !== checked.row.uploaded_at) throw notReady();
  await assertRoom(w.db, kind, target, w.now, row.uuid);
  return makeReady(w, row, { size: Number(row.size), sha256: row.sha256 ?? '', type: checked.type });
}

/** A ready attachment's bytes (409 attachment_not_ready before). */
export async function openAttachment(r: AttachmentRead, files: FileStore, kind: AttachableKind, uuid: string) {
  const row = await attachmentOf(r.db, kind, await kind.resolve(r, r.params), uuid);
  if (row.status !== 'ready') throw notReady();
  const { stream, size } = await files.open(row.storage_key);
  return { stream, size, contentType: row.content_type ?? 'application/octet-stream', filename: row.filename };
}

/** Removed by its uploader, an organization admin, or the author of what it is attached to (403 attachment_delete_forbidden). */
export async function deleteAttachment(w: AttachmentWrite, kind: AttachableKind, uuid: string) {
  const target = await lockStreamOf(w, await kind.resolve(w, w.params));
  const row = await attachmentOf(w.db, kind, target, uuid);
  const me = w.actor.user.uuid;
  if (row.uploader_uuid !== me && target.author !== me && !can(w.actor, 'plan.manage_all')) {
    throw forbidden('attachment_delete_forbidden', 'Only who uploaded an attachment, the author of what it is attached to, or an organization admin can remove it.');
  }
  await dropAttachments(w, [row]);
  return { deleted: { object_kind: 'attachment', uuid, filename: row.filename } };
}

/** Renames an attachment or changes its caption: whoever may remove it (its uploader, the object's author, an admin). */
export async function renameAttachment(w: AttachmentWrite, kind: AttachableKind, uuid: string, input: RenameInput): Promise<AttachmentRow> {
  const target = await lockStreamOf(w, await kind.resolve(w, w.params));
  const row = await attachmentOf(w.db, kind, target, uuid);
  const me = w.actor.user.uuid;
  if (row.uploader_uuid !== me && target.author !== me && !can(w.actor, 'plan.manage_all')) {
    throw forbidden('attachment_delete_forbidden', 'Only who uploaded an attachment, the author of what it is attached to, or an organization admin can change it.');
  }
  const changes = {
    ...(input.filename !== undefined ? { filename: input.filename } : {}),
    ...(input.caption !== undefined ? { caption: input.caption === '' ? null : input.caption } : {}),
  };
  if (Object.keys(changes).length === 0) return row;
  const renamed = { ...row, ...changes };
  await w.db('plan_attachments').where({ uuid }).update(changes);
  await w.changes.record({ kind: 'attachment', uuid, change: 'updated', board: row.board_uuid, project: row.project_uuid, fields: Object.keys(changes), snapshot: presentAttachment(renamed) });
  return renamed;
}

/** Where an attachment's object lives, as the path under /v1/plan/ its doors hang on (null when it is gone). */
async function objectPath(db: Executor, row: AttachmentRow): Promise<string | null> {
  switch (row.object_kind) {
    case 'task': return `tasks/${row.object_uuid}`;
    case 'board': return `boards/${row.object_uuid}`;
    case 'goal': return `goals/${row.object_uuid}`;
    case 'project': return `projects/${row.object_uuid}`;
    case 'project_update': return row.project_uuid ? `projects/${row.project_uuid}/updates/${row.object_uuid}` : null;
    case 'milestone': return row.project_uuid ? `projects/${row.project_uuid}/milestones/${row.object_uuid}` : null;
    case 'comment': {
      const comment = await db('plan_comments').where({ uuid: row.object_uuid }).first('task_uuid');
      return comment ? `tasks/${comment.task_uuid}/comments/${row.object_uuid}` : null;
    }
    default: return null;
  }
}

/**
 * `attachments/resolve/?ids=`: the current address of each ready attachment the caller may see (what an
 * `attachment:<uuid>` reference in a text points at); the others are listed in `missing`, the same whether absent,
 * of another organization or not visible.
 */
export async function resolveAttachments(r: PlanRead, ids: string[], baseUrl: string) {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows: AttachmentRow[] = await r.db('plan_attachments').whereIn('uuid', wanted).where({ organization_uuid: r.actor.organization.uuid, status: 'ready' });
  const results = [];
  for (const row of rows) {
    const seen = row.board_uuid ? await orNull(visibleBoard(r.db, r.actor, row.board_uuid)) : row.project_uuid ? await orNull(visibleProject(r.db, r.actor, row.project_uuid)) : true;
    const path = seen ? await objectPath(r.db, row) : null;
    if (path) results.push({ ...presentAttachment(row), url: `${baseUrl}/v1/plan/${path}/attachments/${row.uuid}/content/` });
  }
  const found = new Set(results.map((a) => a.uuid));
  return { count: results.length, results, missing: wanted.filter((id) => !found.has(id)) };
}

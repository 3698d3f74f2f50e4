import type { Db, Executor } from '../../../db/connection.ts';
import type { AttachmentRow } from '../../../db/tables.ts';
import type { FileStore } from '../../../outbound/files/index.ts';
import type { PlanWrite } from '../frame/context.ts';


/**
 * The rows of plan_attachments and their files' removal. A file is removed only after the transaction that
 * dropped its row commits: the row's deletion puts the file's key in plan_file_trash in that transaction, and the
 * sweep removes the file, then the key (a rolled-back deletion, a dry run included, keeps its file).
 */

/** Attachments held by one object: ready ones, and uploads under way that have not lapsed. */
export async function attachmentsHeld(db: Executor, kind: string, objectUuid: string, now: Date, except: string | null = null): Promise<number> {
  const query = db('plan_attachments')
    .where({ object_uuid: objectUuid, object_kind: kind })
    .andWhere((q) => q.where({ status: 'ready' }).orWhere('expires_at', '>', now.toISOString()));
  if (except) query.whereNot({ uuid: except });
  const [{ count }] = await query.count({ count: '*' });
  return Number(count);
}

/** Drops rows, their files to the trash; records a deletion for each attachment that was visible (ready). */
export async function dropAttachments(w: PlanWrite, rows: AttachmentRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    await w.db('plan_file_trash').insert(part.map((r) => ({ storage_key: r.storage_key, created_at: w.now.toISOString() }))).onConflict('storage_key').ignore();
    await w.db('plan_attachments').whereIn('uuid', part.map((r) => r.uuid)).delete();
  }
  for (const row of rows.filter((r) => r.status === 'ready')) {
    await w.changes.record({ kind: 'attachment', uuid: row.uuid, change: 'deleted', board: row.board_uuid, project: row.project_uuid, snapshot: null });
  }
}

/**
 * Deleting an object removes its files: services call this in the transaction that deletes the object (a project,
 * a goal, an update, a task, a comment), with one change recorded per attachment.
 */
export async function removeAttachmentsOf(w: PlanWrite, kind: string, objectUuids: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < objectUuids.length; i += 200) {
    const rows: AttachmentRow[] = await w.db('plan_attachments').where({ object_kind: kind }).whereIn('object_uuid', objectUuids.slice(i, i + 200));
    await dropAttachments(w, rows);
    removed += rows.length;
  }
  return removed;
}

/** Puts one key in the trash outside any object's deletion (an upload refused or replayed). */
export async function trashKey(db: Executor, key: string, now: Date): Promise<void> {
  await db('plan_file_trash').insert({ storage_key: key, created_at: now.toISOString() }).onConflict('storage_key').ignore();
}

/**
 * The sweep (a minute job): pending uploads past their time and attachments whose object is gone (a cascade no
 * service saw: a board's deletion takes its tasks) go to the trash; then every trashed file is removed from the
 * store, and its key forgotten. A store that is down keeps the keys for the next sweep. Answers files removed.
 */
export async function sweepFiles(db: Db, files: FileStore, tables: Record<string, string>, now: Date): Promise<number> {
  await db.transaction(async (trx) => {
    const lapsed: AttachmentRow[] = await trx('plan_attachments').where({ status: 'pending' }).where('expires_at', '<=', now.toISOString()).limit(1000);
    const orphans: AttachmentRow[] = [];
    for (const [kind, table] of Object.entries(tables)) {
      orphans.push(
        ...(await trx('plan_attachments as a')
          .where('a.object_kind', kind)
          .whereNotExists(trx(table).select(trx.raw('1')).whereRaw('??.uuid = a.object_uuid', [table]))
          .select('a.*')
          .limit(1000)),
      );
    }
    const rows = [...lapsed, ...orphans];
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      await trx('plan_file_trash').insert(part.map((r) => ({ storage_key: r.storage_key, created_at: now.toISOString() }))).onConflict('storage_key').ignore();
      await trx('plan_attachments').whereIn('uuid', part.map((r) => r.uuid)).delete();
    }
  });
  let removed = 0;
  const trash: { storage_key: string }[] = await db('plan_file_trash').orderBy('created_at').limit(1000).select('storage_key');
  for (const { storage_key } of trash) {
    try {
      await files.remove(storage_key);
    } catch {
      break;
    }
    await db('plan_file_trash').where({ storage_key }).delete();
    removed++;
  }
  return removed;
}



import type { CommentRow } from '../../../db/tables.ts';
import { readJson } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { personRef, timestamps } from '../frame/presenters.ts';
import type { PersonColumns } from '../frame/presenters.ts';

/** A comment: its task, the comment it replies to, its author (and the agent that wrote it), whom it mentions. */
export function presentComment(row: CommentRow, author: PersonColumns | null, replies: number) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    task: row.task_uuid,
    parent: row.parent_uuid,
    body: row.body,
    author: author ? personRef(author) : null,
    agent_name: row.agent_name,
    mentions: readJson<string[]>(row.mentions, []),
    reply_count: replies,
    ...timestamps(row),
    edited_at: iso(row.edited_at),
  };
}

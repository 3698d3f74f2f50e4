import type { BoardRow, CommentRow, TaskRow } from '../../../db/tables.ts';
import { fullName } from '../../users/repository.ts';
import type { PlanWrite } from '../frame/context.ts';
import { notify } from '../notifications/notify.ts';
import { taskSubscribers } from '../tasks/people.ts';

/**
 * What a comment tells people, in the comment's own transaction: the people it mentions (`task.mentioned`), the
 * author of the comment it answers (`task.comment_replied`), and the task's followers (`task.commented`); each
 * person hears once, by the most specific kind. notify() leaves out the writer and anyone who cannot see the task.
 * An edit tells only the people it newly mentions.
 */
export async function notifyComment(
  w: PlanWrite,
  { task, board, comment, parent, mentioned, edited = false }: { task: TaskRow; board: BoardRow; comment: CommentRow; parent: CommentRow | null; mentioned: string[]; edited?: boolean },
): Promise<void> {
  const key = `${board.key}-${task.number}`;
  const who = fullName(w.actor.user);
  const subject = { type: 'task' as const, uuid: task.uuid, board: board.uuid, project: board.project_uuid, title: task.title, key };
  const data = { comment: comment.uuid, task: task.uuid };
  const send = (kind: string, recipients: string[], text: string) =>
    recipients.length ? notify(w.db, { kind, organizationUuid: board.organization_uuid, recipients, subject, actor: { uuid: w.actor.user.uuid }, agentName: w.agentName, text, data }, w.now) : null;

  await send('task.mentioned', mentioned, `${who} mentioned you on ${key} ${task.title}`);
  if (edited) return;
  const told = new Set(mentioned);
  const replied = parent?.author_uuid && !told.has(parent.author_uuid) ? [parent.author_uuid] : [];
  await send('task.comment_replied', replied, `${who} replied to your comment on ${key} ${task.title}`);
  for (const uuid of replied) told.add(uuid);
  const followers = (await taskSubscribers(w.db, task)).filter((uuid) => !told.has(uuid));
  await send('task.commented', followers, `${who} commented on ${key} ${task.title}`);
}

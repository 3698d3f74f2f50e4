import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';

type Comment = Schemas['PlanComment'];
type Reaction = Pick<Schemas['PlanReaction'], 'emoji' | 'count' | 'reacted'>;
import { formatDate, t } from '../i18n.ts';
import { withMentions } from '../markdown.ts';
import { ErrorNote, Markdown } from '../ui.tsx';
import type { BoardCopy, Task } from './live.ts';



const QUICK = ['👍', '🎉', '👀'];

/** A task's comments as sanitized Markdown, mentions (`<@uuid>`) shown as names, with reactions; a new comment. */
export function Comments({ task, copy, me }: { task: Task; copy: BoardCopy; me: Me }) {
  const [comments, setComments] = useState<Comment[]>([]);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const people = new Map(copy.members.map((m) => [m.user.uuid, m.user.full_name]));
  people.set(me.uuid, me.full_name);
  useEffect(() => void all('/v1/plan/tasks/{task}/comments/', { path: { task: task.uuid } }).then(setComments, (err) => setError(err.message)), [task.uuid]);

  async function add(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const comment = await ok(api.POST('/v1/plan/tasks/{task}/comments/', { params: { path: { task: task.uuid } }, body: { body } }));
      setComments([...comments, comment]);
      setBody('');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <section aria-labelledby="comments-title">
      <h3 id="comments-title">{t('comments.title')}</h3>
      <ol class="plain comments">
        {comments.map((c) => (
          <li key={c.uuid} class={c.parent ? 'reply' : ''}>
            <p class="muted">
              {c.author?.full_name ?? '—'}
              {c.agent_name ? <span class="badge agent">{t('comments.agent', { agent: c.agent_name })}</span> : null} · {formatDate(c.created_at)}
              {c.edited_at ? ` · ${t('comments.edited')}` : ''}
            </p>
            <Markdown text={withMentions(c.body, people)} class="comment-body" />
            <Reactions task={task} comment={c} />
          </li>
        ))}
      </ol>
      <form onSubmit={add}>
        <label for="comment-body">{t('comments.new')}</label>
        <textarea id="comment-body" rows={3} required maxLength={10000} value={body} onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)} aria-describedby="comment-help" />
        <p id="comment-help" class="muted">{t('comments.help')}</p>
        <div class="toolbar">
          <label>
            {t('comments.mention')}{' '}
            <select value="" onChange={(e) => {
              const id = (e.target as HTMLSelectElement).value;
              if (id) setBody(`${body}${body && !body.endsWith(' ') ? ' ' : ''}<@${id}> `);
            }}>
              <option value="">—</option>
              {copy.members.map((m) => <option key={m.user.uuid} value={m.user.uuid}>{m.user.full_name}</option>)}
            </select>
          </label>
          <button type="submit" class="primary">{t('comments.send')}</button>
        </div>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

function Reactions({ task, comment }: { task: Task; comment: Comment }) {
  const [reactions, setReactions] = useState<Reaction[]>([]);
  const path = { task: task.uuid, comment: comment.uuid };
  const load = () => all('/v1/plan/tasks/{task}/comments/{comment}/reactions/', { path }).then(setReactions, () => {});
  useEffect(() => void load(), [comment.uuid]);
  const shown = [...reactions, ...QUICK.filter((q) => !reactions.some((r) => r.emoji === q)).map((emoji) => ({ emoji, count: 0, reacted: false }))];
  const toggle = async (r: Reaction) => {
    await (r.reacted
      ? api.DELETE('/v1/plan/tasks/{task}/comments/{comment}/reactions/{emoji}/', { params: { path: { ...path, emoji: r.emoji } } })
      : api.POST('/v1/plan/tasks/{task}/comments/{comment}/reactions/', { params: { path }, body: { emoji: r.emoji } })
    ).catch(() => {});
    await load();
  };
  return (
    <div class="reactions" role="group" aria-label={t('comments.reactions')}>
      {shown.map((r) => (
        <button key={r.emoji} type="button" aria-pressed={r.reacted} onClick={() => toggle(r)} aria-label={t('comments.react', { emoji: r.emoji, count: r.count })}>
          {r.emoji}{r.count ? ` ${r.count}` : ''}
        </button>
      ))}
    </div>
  );
}

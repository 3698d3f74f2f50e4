import { useEffect, useRef, useState } from 'preact/hooks';
import { all, api, ApiError, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote, Loading, Markdown } from '../ui.tsx';
import { withMentions } from '../markdown.ts';
import type { BoardCopy, Task } from './live.ts';
import { Comments } from './comments.tsx';
import { Files } from './files.tsx';

/** The fields the form edits, as the API names them. */
interface Draft {
  title: string;
  description: string;
  owner: string | null;
  priority: number | null;
  start_date: string | null;
  due_date: string | null;
  labels: string[];
}

const FIELDS: (keyof Draft)[] = ['title', 'description', 'owner', 'priority', 'start_date', 'due_date', 'labels'];
const draftOf = (task: Task): Draft => ({
  title: task.title, description: task.description ?? '', owner: task.owner, priority: task.priority,
  start_date: task.start_date, due_date: task.due_date, labels: [...task.labels],
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A task, opened beside its board: every field edited with the version it was read at (If-Match). When someone
 * else saved it meanwhile (409 version_conflict), the newer task is shown beside what the person typed, which
 * is kept: they choose to save theirs over it or take the newer one.
 */
export function TaskDetail({ taskRef, copy, me, onSaved, onMove, onClose }: {
  taskRef: string;
  copy: BoardCopy;
  me: Me;
  onSaved: (task: Task) => void;
  onMove: (task: Task, state: string) => void;
  onClose: () => void;
}) {
  const [task, setTask] = useState<Task | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [newer, setNewer] = useState<Task | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    ok(api.GET('/v1/plan/tasks/{task}/', { params: { path: { task: taskRef } } })).then(
      (loaded) => {
        setTask(loaded);
        setDraft(draftOf(loaded));
        setTimeout(() => heading.current?.focus(), 0);
      },
      (err) => setError(err.message),
    );
    const onEscape = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    addEventListener('keydown', onEscape);
    return () => removeEventListener('keydown', onEscape);
  }, [taskRef]);

  if (error && !task) return <aside class="detail" aria-label={t('task.title')}><ErrorNote message={error} /><button type="button" onClick={onClose}>{t('close')}</button></aside>;
  if (!task || !draft) return <aside class="detail" aria-label={t('task.title')}><Loading /></aside>;

  async function save(e: Event, over?: Task) {
    e.preventDefault();
    const base = over ?? task!;
    const changes: Partial<Draft> = Object.fromEntries(FIELDS.filter((f) => !same(draft![f], draftOf(base)[f])).map((f) => [f, draft![f]]));
    setError(null);
    setSaved(false);
    if (!Object.keys(changes).length) return;
    try {
      const updated = await ok(api.PATCH('/v1/plan/tasks/{task}/', { params: { path: { task: task!.uuid } }, body: changes, headers: { 'If-Match': `"${base.version}"` } }));
      setTask(updated);
      setDraft(draftOf(updated));
      setNewer(null);
      setSaved(true);
      onSaved(updated);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'version_conflict') {
        setNewer(await ok(api.GET('/v1/plan/tasks/{task}/', { params: { path: { task: task!.uuid } } })));
      } else setError((err as Error).message);
    }
  }

  const people = new Map(copy.members.map((m) => [m.user.uuid, m.user.full_name]));
  const labels = copy.labels.filter((l) => !l.archived_at);
  const states = copy.states.filter((s) => !s.archived_at).sort((a, b) => a.position - b.position);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const input = (e: Event) => (e.target as HTMLInputElement).value;
  const describe = (f: keyof Draft, v: Task) =>
    f === 'owner' ? (v.owner ? people.get(v.owner) ?? v.owner : '—') : f === 'labels' ? v.labels.map((l) => labels.find((x) => x.uuid === l)?.name ?? l).join(', ') || '—' : String(v[f] ?? '—');

  return (
    <aside class="detail" aria-labelledby="task-heading">
      <div class="detail-head">
        <h2 id="task-heading" tabIndex={-1} ref={heading}><span class="key">{task.key}</span> {task.title}</h2>
        <button type="button" class="close" onClick={onClose} aria-label={t('close')}>×</button>
      </div>
      {newer ? (
        <div class="conflict" role="alert">
          <p><strong>{t('task.conflict', { version: newer.version })}</strong></p>
          <ul>
            {FIELDS.filter((f) => !same(draftOf(newer)[f], draftOf(task)[f])).map((f) => (
              <li key={f}>{t(`task.${f}` as any)}: {describe(f, newer)}</li>
            ))}
          </ul>
          <p>{t('task.conflictkept')}</p>
          <button type="button" class="primary" onClick={(e) => save(e, newer)}>{t('task.saveover')}</button>
          <button type="button" onClick={() => (setTask(newer), setDraft(draftOf(newer)), setNewer(null), onSaved(newer))}>{t('task.taketheirs')}</button>
        </div>
      ) : null}
      <form onSubmit={(e) => save(e)} class="task-form">
        <label for="task-title">{t('task.title')}</label>
        <input id="task-title" required maxLength={500} value={draft.title} onInput={(e) => set({ title: input(e) })} />
        <label for="task-description">{t('task.description')}</label>
        <textarea id="task-description" rows={5} maxLength={50000} value={draft.description} onInput={(e) => set({ description: input(e) })} />
        {draft.description ? (
          <div class="preview" aria-label={t('task.preview')}>
            <Markdown text={withMentions(draft.description, people)} />
          </div>
        ) : null}
        <div class="grid2">
          <div>
            <label for="task-state">{t('task.state')}</label>
            <select id="task-state" value={task.state} onChange={(e) => onMove(task, input(e))}>
              {states.map((s) => <option key={s.uuid} value={s.uuid}>{s.name}</option>)}
            </select>
          </div>
          <div>
            <label for="task-owner">{t('task.owner')}</label>
            <select id="task-owner" value={draft.owner ?? ''} onChange={(e) => set({ owner: input(e) || null })}>
              <option value="">{t('task.noowner')}</option>
              {copy.members.map((m) => <option key={m.user.uuid} value={m.user.uuid}>{m.user.full_name}</option>)}
            </select>
          </div>
          <div>
            <label for="task-priority">{t('task.priority')}</label>
            <select id="task-priority" value={String(draft.priority ?? '')} onChange={(e) => set({ priority: Number(input(e)) || null })}>
              <option value="">—</option>
              {[1, 2, 3, 4, 5].map((p) => <option key={p} value={p}>P{p}</option>)}
            </select>
          </div>
          <div>
            <label for="task-start">{t('task.start_date')}</label>
            <input id="task-start" type="date" value={draft.start_date ?? ''} onChange={(e) => set({ start_date: input(e) || null })} />
          </div>
          <div>
            <label for="task-due">{t('task.due_date')}</label>
            <input id="task-due" type="date" value={draft.due_date ?? ''} onChange={(e) => set({ due_date: input(e) || null })} />
          </div>
        </div>
        {labels.length ? (
          <fieldset>
            <legend>{t('task.labels')}</legend>
            {labels.map((l) => (
              <label key={l.uuid} class="check">
                <input
                  type="checkbox" checked={draft.labels.includes(l.uuid)}
                  onChange={(e) => set({ labels: (e.target as HTMLInputElement).checked ? [...draft.labels, l.uuid] : draft.labels.filter((x) => x !== l.uuid) })}
                />
                {l.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <button type="submit" class="primary">{t('task.save')}</button>
        {saved ? <span class="ok" role="status">{t('task.saved')}</span> : null}
        <ErrorNote message={error} />
      </form>
      <Subtasks task={task} />
      <Relations task={task} />
      <Comments task={task} copy={copy} me={me} />
      <Files task={task} />
    </aside>
  );
}

type Ref = Pick<Task, 'uuid' | 'key' | 'title'>;

function Subtasks({ task }: { task: Task }) {
  const [children, setChildren] = useState<Ref[]>([]);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void all('/v1/plan/tasks/{task}/children/', { path: { task: task.uuid } }).then(setChildren, () => {}), [task.uuid]);
  if (task.parent_task) return null;
  async function add(e: Event) {
    e.preventDefault();
    try {
      const child = await ok(api.POST('/v1/plan/tasks/{task}/children/', { params: { path: { task: task.uuid } }, body: { title } }));
      setChildren([...children, child]);
      setTitle('');
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section aria-labelledby="subtasks-title">
      <h3 id="subtasks-title">{t('task.subtasks')}</h3>
      <ul class="plain">{children.map((c) => <li key={c.uuid}><span class="key">{c.key}</span> {c.title}</li>)}</ul>
      <form onSubmit={add} class="inline-form">
        <label class="sr-only" for="subtask-title">{t('task.addsubtask')}</label>
        <input id="subtask-title" placeholder={t('task.addsubtask')} required maxLength={500} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
        <button type="submit">{t('add')}</button>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

function Relations({ task }: { task: Task }) {
  const [relations, setRelations] = useState<Schemas['PlanTaskRelation'][]>([]);
  useEffect(() => void all('/v1/plan/tasks/{task}/relations/', { path: { task: task.uuid } }).then(setRelations, () => {}), [task.uuid]);
  if (!relations.length) return null;
  return (
    <section aria-labelledby="relations-title">
      <h3 id="relations-title">{t('task.relations')}</h3>
      <ul class="plain">
        {relations.map((r) => <li key={r.uuid}>{t(`relation.${r.relation_type}` as any) || r.relation_type} <span class="key">{r.task.key}</span> {r.task.title}</li>)}
      </ul>
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';

type View = Schemas['PlanView'];
import { localDay, t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';
import type { BoardCopy, Task } from './live.ts';

/** The board's filters, in the task list's query-parameter names (what a saved view stores). */
export interface FilterValues {
  search?: string;
  owner?: string; // a person's uuid, "me" or "none"
  label?: string[];
  priority?: number;
  /** Relative to today, so a saved view stays useful: overdue, due within 7 days, or without a due date. */
  due?: 'overdue' | 'week' | 'none';
}
const DUES = ['overdue', 'week', 'none'] as const;

export const NO_FILTERS: FilterValues = {};


export function matches(task: Task, f: FilterValues, me: Me): boolean {
  if (f.search) {
    const q = f.search.toLowerCase();
    if (!task.title.toLowerCase().includes(q) && !task.key.toLowerCase().includes(q)) return false;
  }
  if (f.owner === 'me' && task.owner !== me.uuid) return false;
  if (f.owner === 'none' && task.owner !== null) return false;
  if (f.owner && f.owner !== 'me' && f.owner !== 'none' && task.owner !== f.owner) return false;
  if (f.label?.length && !f.label.some((l) => task.labels.includes(l))) return false;
  if (f.priority && task.priority !== f.priority) return false;
  if (f.due === 'none' && task.due_date) return false;
  if (f.due === 'overdue' || f.due === 'week') {
    const today = localDay();
    if (!task.due_date || task.completed_at) return false;
    if (f.due === 'overdue' && task.due_date >= today) return false;
    if (f.due === 'week' && (task.due_date < today || task.due_date > localDay(new Date(Date.now() + 7 * 86_400_000)))) return false;
  }
  return true;
}

/** Reads a saved view's filters, keeping the ones this board understands. */
function fromView(filters: Record<string, unknown>): FilterValues {
  const out: FilterValues = {};
  if (typeof filters.search === 'string') out.search = filters.search;
  if (typeof filters.owner === 'string') out.owner = filters.owner;
  if (Array.isArray(filters.label)) out.label = filters.label.filter((x): x is string => typeof x === 'string');
  else if (typeof filters.label === 'string') out.label = [filters.label];
  if (typeof filters.priority === 'number') out.priority = filters.priority;
  const due = DUES.find((d) => d === filters.due);
  if (due) out.due = due;
  return out;
}

export function Filters({ board, value, onChange, boardUuid }: { board: BoardCopy; value: FilterValues; onChange: (v: FilterValues) => void; boardUuid: string }) {
  const [views, setViews] = useState<View[]>([]);
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    all('/v1/plan/boards/{board}/views/', { path: { board: boardUuid } }).then(setViews, () => {});
  }, [boardUuid]);
  const set = (patch: Partial<FilterValues>) => {
    setChosen('');
    onChange(Object.fromEntries(Object.entries({ ...value, ...patch }).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && !v.length))));
  };

  async function save(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const view = await ok(api.POST('/v1/plan/boards/{board}/views/', { params: { path: { board: boardUuid } }, body: { name, visibility: 'personal', filters: { ...value } } }));
      setViews([...views, view]);
      setChosen(view.uuid);
      setName('');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const labels = board.labels.filter((l) => !l.archived_at);
  return (
    <section class="filters" aria-label={t('filters.title')}>
      <label>
        {t('filters.view')}{' '}
        <select
          value={chosen}
          onChange={(e) => {
            const id = (e.target as HTMLSelectElement).value;
            setChosen(id);
            const view = views.find((v) => v.uuid === id);
            onChange(view ? fromView(view.filters) : NO_FILTERS);
          }}
        >
          <option value="">{t('filters.allviews')}</option>
          {views.map((v) => <option key={v.uuid} value={v.uuid}>{v.name}</option>)}
        </select>
      </label>
      <label class="search">
        {t('filters.search')}{' '}
        <input type="search" value={value.search ?? ''} onInput={(e) => set({ search: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        {t('filters.owner')}{' '}
        <select value={value.owner ?? ''} onChange={(e) => set({ owner: (e.target as HTMLSelectElement).value || undefined })}>
          <option value="">{t('filters.anyone')}</option>
          <option value="me">{t('filters.me')}</option>
          <option value="none">{t('filters.nobody')}</option>
          {board.members.map((m) => <option key={m.user.uuid} value={m.user.uuid}>{m.user.full_name}</option>)}
        </select>
      </label>
      {labels.length ? (
        <label>
          {t('filters.label')}{' '}
          <select value={value.label?.[0] ?? ''} onChange={(e) => set({ label: (e.target as HTMLSelectElement).value ? [(e.target as HTMLSelectElement).value] : undefined })}>
            <option value="">{t('filters.any')}</option>
            {labels.map((l) => <option key={l.uuid} value={l.uuid}>{l.name}</option>)}
          </select>
        </label>
      ) : null}
      <label>
        {t('filters.priority')}{' '}
        <select value={String(value.priority ?? '')} onChange={(e) => set({ priority: Number((e.target as HTMLSelectElement).value) || undefined })}>
          <option value="">{t('filters.any')}</option>
          {[1, 2, 3, 4, 5].map((p) => <option key={p} value={p}>P{p}</option>)}
        </select>
      </label>
      <label>
        {t('filters.due')}{' '}
        <select value={value.due ?? ''} onChange={(e) => set({ due: DUES.find((d) => d === (e.target as HTMLSelectElement).value) })}>
          <option value="">{t('filters.any')}</option>
          <option value="overdue">{t('filters.overdue')}</option>
          <option value="week">{t('filters.week')}</option>
          <option value="none">{t('filters.nodue')}</option>
        </select>
      </label>
      {Object.keys(value).length && !chosen ? (
        <form onSubmit={save} class="save-view">
          <label>
            <span class="sr-only">{t('filters.viewname')}</span>
            <input placeholder={t('filters.viewname')} required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit">{t('filters.save')}</button>
        </form>
      ) : null}
      <ErrorNote message={error} />
    </section>
  );
}

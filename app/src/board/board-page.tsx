import Sortable from 'sortablejs';
import { memo } from 'preact/compat';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ApiError, ok } from '../api.ts';
import type { Me } from '../api.ts';
import { lang, t } from '../i18n.ts';
import { ErrorNote, Loading } from '../ui.tsx';
import { byRank, LiveBoard } from './live.ts';
import type { BoardCopy, State, Task } from './live.ts';
import { cardContext, countsFor, countsOf, TaskCard } from './card.tsx';
import type { CardContext, Counts } from './card.tsx';
import { Filters, matches, NO_FILTERS } from './filters.tsx';
import type { FilterValues } from './filters.tsx';
import { ListView } from './list-view.tsx';
import { TaskDetail } from './task-detail.tsx';

/** A board: its columns (live states by position), tasks by rank, drag to move, kept current by the delta feed. */
export function BoardPage({ board: boardUuid, task: taskRef, me, setTitle }: { board: string; task?: string; me: Me; setTitle: (title: string) => void }) {
  const { route, query } = useLocation();
  const view = query.view === 'list' ? 'list' : 'board';
  const live = useMemo(() => new LiveBoard(boardUuid), [boardUuid]);
  const [copy, setCopy] = useState<BoardCopy | null>(null);
  const [, bump] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilters] = useState<FilterValues>(NO_FILTERS);

  useEffect(() => {
    const off = live.subscribe(() => {
      setCopy(live.copy);
      bump((n) => n + 1);
    });
    live.start().catch((err) => setError(err.message));
    return () => {
      off();
      live.stop();
    };
  }, [live]);
  useEffect(() => {
    if (copy) setTitle(copy.board.name);
  }, [copy?.board.name]);

  // Each column's cards, recomputed only when the board's tasks or the filters change (a re-render of the page for
  // anything else hands every column the same array, and memo() skips it).
  const tasks = copy?.tasks;
  const byColumn = useMemo(() => {
    const columns = new Map<string, Task[]>();
    for (const task of tasks ?? []) {
      if (task.parent_task || !matches(task, filters, me)) continue;
      const list = columns.get(task.state);
      if (list) list.push(task);
      else columns.set(task.state, [task]);
    }
    for (const list of columns.values()) list.sort(byRank);
    return columns;
  }, [tasks, filters]);
  // What every card shares (people, labels, words) changes with them and the language only; the counts with tasks.
  const language = lang.value;
  const ctx = useMemo(() => (copy ? cardContext(copy, language) : null), [copy?.members, copy?.labels, language]);
  const counts = useMemo(() => (copy ? countsOf(copy) : new Map<string, Counts>()), [tasks, copy?.comment_counts]);

  if (error) return <ErrorNote message={error} />;
  if (!copy || !ctx) return <Loading />;
  const states = copy.states.filter((s) => !s.archived_at).sort((a, b) => a.position - b.position);
  const base = `/app/boards/${boardUuid}/`;
  const suffix = view === 'list' ? '?view=list' : '';
  const taskHref = (task: Task) => `${base}tasks/${task.key}/${suffix}`;

  /** Places a task in a column after/before a neighbour (POST …/move/), showing it there at once. */
  async function move(task: Task, state: string, neighbour: { after?: string; before?: string }) {
    const column = copy!.tasks.filter((x) => x.state === state && x.uuid !== task.uuid).sort(byRank);
    const after = column.find((x) => x.uuid === neighbour.after);
    const before = column.find((x) => x.uuid === neighbour.before);
    const provisional = after ? `${after.rank}\u0001` : before ? '\u0001' : `${column.at(-1)?.rank ?? ''}\u0001`;
    live.put({ ...task, state, rank: provisional });
    try {
      const moved = await ok(api.POST('/v1/plan/tasks/{task}/move/', { params: { path: { task: task.uuid } }, body: { state, ...neighbour } }));
      live.put(moved);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      await live.start();
    }
  }

  return (
    <div class="board-page">
      <div class="board-head">
        <h1><span class="key">{copy.board.key}</span> {copy.board.name}</h1>
        <a href="/app/boards/">{t('board.all')}</a>
        <nav class="view-switch" aria-label={t('board.views')}>
          <a href={base} aria-current={view === 'board' ? 'page' : undefined}>{t('board.board')}</a>
          <a href={`${base}?view=list`} aria-current={view === 'list' ? 'page' : undefined}>{t('board.list')}</a>
        </nav>
      </div>
      <Filters board={copy} value={filters} onChange={setFilters} boardUuid={boardUuid} />
      {view === 'list' ? (
        <ListView states={states} byColumn={byColumn} ctx={ctx} counts={counts} href={taskHref} />
      ) : (
        <>
          <p class="sr-only" id="drag-help">{t('board.draghelp')}</p>
          <div class="columns-scroll">
            <ol class="board" aria-label={t('board.columns')}>
              {states.map((state, i) => (
                <Column
                  key={state.uuid}
                  state={state}
                  tasks={byColumn.get(state.uuid) ?? NONE}
                  copy={copy}
                  live={live}
                  boardUuid={boardUuid}
                  onMove={move}
                  neighbours={[states[i - 1], states[i + 1]]}
                  onCreated={(task) => live.put(task)}
                  ctx={ctx}
                  counts={counts}
                  href={taskHref}
                />
              ))}
            </ol>
          </div>
        </>
      )}
      {taskRef ? (
        <TaskDetail
          key={taskRef}
          taskRef={taskRef}
          copy={copy}
          me={me}
          onSaved={(task) => live.put(task)}
          onMove={(task, state) => move(task, state, {})}
          onClose={() => route(`${base}${suffix}`)}
        />
      ) : null}
    </div>
  );
}

const NONE: Task[] = [];
const FIRST_CARDS = 60;

/** A column re-renders when its cards change, not when another column or the page does. */
const Column = memo(ColumnView, (a, b) => a.tasks === b.tasks && a.ctx === b.ctx && a.counts === b.counts && a.state === b.state && a.neighbours[0] === b.neighbours[0] && a.neighbours[1] === b.neighbours[1]);

function ColumnView({ state, tasks, copy, live, boardUuid, onMove, neighbours, onCreated, ctx, counts, href }: {
  /** What the cards share; its words change with the interface language. */
  ctx: CardContext;
  counts: Map<string, Counts>;
  href: (task: Task) => string;
  state: State;
  tasks: Task[];
  copy: BoardCopy;
  live: LiveBoard;
  boardUuid: string;
  onMove: (task: Task, state: string, neighbour: { after?: string; before?: string }) => void;
  neighbours: [State | undefined, State | undefined];
  onCreated: (task: Task) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  const latest = useRef({ tasks, onMove, copy });
  latest.current = { tasks, onMove, copy };
  const big = tasks.length > 100;
  // A long column shows its first cards at once and the rest when the browser is idle: the board is usable
  // sooner, and the whole column is there a moment later.
  const [whole, setWhole] = useState(tasks.length <= FIRST_CARDS);
  useEffect(() => {
    if (whole || tasks.length <= FIRST_CARDS) return;
    const id = setTimeout(() => setWhole(true), 50);
    return () => clearTimeout(id);
  }, [whole, tasks.length]);
  const shown = whole ? tasks : tasks.slice(0, FIRST_CARDS);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const sortable = Sortable.create(list.current!, {
      group: 'tasks',
      // Sortable animates by measuring every card of the column on each move: past a hundred cards that costs
      // whole frames, so big columns move without it.
      animation: big ? 0 : 120,
      forceFallback: true,
      fallbackTolerance: 4,
      filter: '.no-drag',
      preventOnFilter: false,
      // The board waits for the drop before applying anyone else's changes: Sortable owns the DOM meanwhile.
      onStart: () => live.hold(true),
      onEnd(evt) {
        live.hold(false);
        const { item, from, to, oldIndex } = evt;
        const moved = !(from === to && evt.oldIndex === evt.newIndex);
        // Where it was dropped, read before the DOM is put back: the cards around it in the target column.
        const siblings = [...to.children] as HTMLElement[];
        const at = siblings.indexOf(item);
        const ids = siblings.filter((el) => el !== item).map((el) => el.dataset.id!);
        // Put the DOM back as Preact left it; the move re-renders the columns from the board copy.
        item.remove();
        from.insertBefore(item, from.children[oldIndex ?? 0] ?? null);
        const task = latest.current.copy.tasks.find((x) => x.uuid === item.dataset.id);
        if (!moved || !task) return;
        latest.current.onMove(task, to.dataset.state!, at > 0 ? { after: ids[at - 1] } : ids[0] ? { before: ids[0] } : {});
      },
    });
    return () => sortable.destroy();
  }, [big]);

  /** Keyboard moves on a focused card: Alt+↑/↓ within the column, Alt+←/→ to the next column. */
  function onKey(e: KeyboardEvent, task: Task, i: number) {
    if (!e.altKey) return;
    const [left, right] = neighbours;
    if (e.key === 'ArrowUp' && i > 0) onMove(task, state.uuid, i > 1 ? { after: tasks[i - 2].uuid } : { before: tasks[0].uuid });
    else if (e.key === 'ArrowDown' && i < tasks.length - 1) onMove(task, state.uuid, { after: tasks[i + 1].uuid });
    else if (e.key === 'ArrowLeft' && left) onMove(task, left.uuid, {});
    else if (e.key === 'ArrowRight' && right) onMove(task, right.uuid, {});
    else return;
    e.preventDefault();
    const id = task.uuid;
    setTimeout(() => document.querySelector<HTMLElement>(`[data-id="${id}"] a`)?.focus(), 50);
  }

  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      onCreated(await ok(api.POST('/v1/plan/boards/{board}/tasks/', { params: { path: { board: boardUuid } }, body: { title, state: state.uuid } })));
      setTitle('');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const headingId = `col-${state.uuid}`;
  return (
    <li class="column" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <span class="dot" data-category={state.category} aria-hidden="true" />
        {state.name} <span class="count">{tasks.length}</span>
      </h2>
      <ol ref={list} class="cards" data-state={state.uuid} aria-labelledby={headingId}>
        {shown.map((task, i) => (
          <TaskCard key={task.uuid} task={task} href={href(task)} ctx={ctx} counts={countsFor(counts, task.uuid)} onKey={(e) => onKey(e, task, i)} />
        ))}
      </ol>
      <form class="add-task" onSubmit={create}>
        <label class="sr-only" for={`add-${state.uuid}`}>{t('board.addin', { column: state.name })}</label>
        <input id={`add-${state.uuid}`} placeholder={t('board.add')} required maxLength={500} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />
        <button type="submit" aria-label={t('board.addin', { column: state.name })}>+</button>
      </form>
      <ErrorNote message={error} />
    </li>
  );
}

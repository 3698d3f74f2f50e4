import { memo } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { Avatar, CommentCount, countsFor, Due, LabelChip, Priority, Subtasks } from './card.tsx';
import type { CardContext, Counts } from './card.tsx';
import type { State, Task } from './live.ts';

const FIRST_ROWS = 150;

/**
 * The board as a table, beside the columns: the same tasks and filters, column by column in board order, one row
 * a task with what its card shows. A long board shows its first rows at once and the rest a moment later.
 */
export function ListView({ states, byColumn, ctx, counts, href }: {
  states: State[];
  byColumn: Map<string, Task[]>;
  ctx: CardContext;
  counts: Map<string, Counts>;
  href: (task: Task) => string;
}) {
  const rows = states.flatMap((state) => (byColumn.get(state.uuid) ?? []).map((task) => ({ task, state })));
  const [whole, setWhole] = useState(rows.length <= FIRST_ROWS);
  useEffect(() => {
    if (whole) return;
    const id = setTimeout(() => setWhole(true), 50);
    return () => clearTimeout(id);
  }, [whole]);
  const shown = whole ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <div class="list-scroll">
      <table class="task-list">
        <caption class="sr-only">{t('board.list')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('list.task')}</th>
            <th scope="col">{t('task.state')}</th>
            <th scope="col">{t('card.priority')}</th>
            <th scope="col">{t('task.labels')}</th>
            <th scope="col">{t('card.due')}</th>
            <th scope="col">{t('card.progress')}</th>
            <th scope="col">{t('card.owner')}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(({ task, state }) => (
            <Row key={task.uuid} task={task} state={state} ctx={ctx} counts={countsFor(counts, task.uuid)} href={href(task)} />
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? <p class="muted empty">{t('list.none')}</p> : null}
    </div>
  );
}

const Row = memo(
  function Row({ task, state, ctx, counts, href }: { task: Task; state: State; ctx: CardContext; counts: Counts; href: string }) {
    const owner = task.owner ? ctx.people.get(task.owner) : undefined;
    return (
      <tr data-id={task.uuid} data-key={task.key}>
        <td class="title-cell">
          <a href={href}><span class="key">{task.key}</span> {task.title}</a>
        </td>
        <td><span class="state"><span class="dot" data-category={state.category} aria-hidden="true" />{state.name}</span></td>
        <td>{task.priority ? <Priority value={task.priority} label={ctx.words.priority} /> : null}</td>
        <td>{task.labels.map((l) => (ctx.labels.has(l) ? <LabelChip key={l} label={ctx.labels.get(l)!} /> : null))}</td>
        <td><Due task={task} ctx={ctx} /></td>
        <td class="counts"><Subtasks done={counts.subDone} total={counts.subTotal} ctx={ctx} /> <CommentCount count={counts.comments} ctx={ctx} /></td>
        <td>{task.owner && owner !== undefined ? <><Avatar uuid={task.owner} name={owner} label={ctx.words.owner} /> <span class="owner-name" aria-hidden="true">{owner}</span></> : null}</td>
      </tr>
    );
  },
  (a, b) => a.task === b.task && a.state === b.state && a.ctx === b.ctx && a.href === b.href && a.counts.subDone === b.counts.subDone && a.counts.subTotal === b.counts.subTotal && a.counts.comments === b.counts.comments,
);

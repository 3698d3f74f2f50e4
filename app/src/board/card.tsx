import { memo } from 'preact/compat';
import { localDay, t } from '../i18n.ts';
import type { BoardCopy, Label, Task } from './live.ts';

/**
 * What a card shows beside its key and title, and what the list view shows in its columns: the owner (initials),
 * priority, labels, due date (overdue marked), sub-task progress and comment count. What is the same for every
 * card (people, labels, words) is worked out once per board (`CardContext`) and changes only with them, so a
 * change of one task re-renders one card of the thousands a board holds; what changes with other tasks (a
 * parent's sub-task progress) and with comments reaches the card as numbers (`Counts`).
 */
export interface CardContext {
  people: Map<string, string>;
  labels: Map<string, Label>;
  /** Today, YYYY-MM-DD in this browser's zone: a due date before it is overdue. */
  today: string;
  words: CardWords;
  formatDue: (day: string) => string;
}

/** The card's words in the interface language, read once per board render. */
export interface CardWords {
  owner: string;
  priority: string;
  overdue: string;
  due: string;
  subtasks: string;
  comments: string;
}


/** A task's sub-task progress and comments. */
export interface Counts {
  subDone: number;
  subTotal: number;
  comments: number;
}
const NO_COUNTS: Counts = { subDone: 0, subTotal: 0, comments: 0 };

/** Every task's counts that has any: live sub-tasks (and how many are completed) per parent, comments per task. */
export function countsOf(copy: BoardCopy): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  const of = (uuid: string) => counts.get(uuid) ?? counts.set(uuid, { ...NO_COUNTS }).get(uuid)!;
  for (const task of copy.tasks) {
    if (!task.parent_task) continue;
    const parent = of(task.parent_task);
    parent.subTotal++;
    if (task.completed_at) parent.subDone++;
  }
  for (const [uuid, n] of Object.entries(copy.comment_counts)) of(uuid).comments = n;
  return counts;
}
export const countsFor = (counts: Map<string, Counts>, uuid: string) => counts.get(uuid) ?? NO_COUNTS;

export function cardContext(copy: BoardCopy, language: string): CardContext {
  const format = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return {
    people: new Map(copy.members.map((m) => [m.user.uuid, m.user.full_name])),
    labels: new Map(copy.labels.map((l) => [l.uuid, l])),
    today: localDay(),
    words: { owner: t('card.owner'), priority: t('card.priority'), overdue: t('card.overdue'), due: t('card.due'), subtasks: t('card.subtasks'), comments: t('card.comments') },
    formatDue: (day) => format.format(new Date(`${day}T00:00:00Z`)),
  };
}

export const isOverdue = (task: Task, today: string) => !!task.due_date && !task.completed_at && task.due_date < today;

/** "AL" for Ada Lovelace: the first letters of the first and last words. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  return ((words[0][0] ?? '') + (words.length > 1 ? (words.at(-1)![0] ?? '') : '')).toUpperCase();
}

/** One of eight background hues, the same for a person everywhere (their uuid's first digits). */
const hue = (uuid: string) => parseInt(uuid.slice(0, 2), 16) % 8;

export function Avatar({ uuid, name, label }: { uuid: string; name: string; label: string }) {
  return (
    <span class={`avatar h${hue(uuid)}`} title={`${label}: ${name}`}>
      <span aria-hidden="true">{initials(name)}</span>
      <span class="sr-only">{`${label}: ${name}`}</span>
    </span>
  );
}

export function Priority({ value, label }: { value: number; label: string }) {
  return (
    <span class={`prio p${value}`} title={`${label} ${value}`}>
      <span aria-hidden="true">P{value}</span>
      <span class="sr-only">{`${label} ${value}`}</span>
    </span>
  );
}

export function LabelChip({ label }: { label: Label }) {
  return (
    <span class="label">
      <span class="swatch" style={{ background: label.color }} aria-hidden="true" />
      {label.name}
    </span>
  );
}

export function Due({ task, ctx }: { task: Task; ctx: CardContext }) {
  if (!task.due_date) return null;
  const late = isOverdue(task, ctx.today);
  return (
    <span class={late ? 'due overdue' : 'due'}>
      <span class="sr-only">{late ? ctx.words.overdue : ctx.words.due}: </span>
      <time dateTime={task.due_date}>{ctx.formatDue(task.due_date)}</time>
    </span>
  );
}

export function Subtasks({ done, total, ctx }: { done: number; total: number; ctx: CardContext }) {
  if (!total) return null;
  return (
    <span class={done === total ? 'subtasks complete' : 'subtasks'} title={ctx.words.subtasks}>
      <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12"><path fill="none" stroke="currentColor" stroke-width="1.8" d="M2.5 8.5l3 3 8-8" /></svg>
      <span class="sr-only">{ctx.words.subtasks}: </span>
      {done}/{total}
    </span>
  );
}

export function CommentCount({ count, ctx }: { count: number; ctx: CardContext }) {
  if (!count) return null;
  return (
    <span class="comment-count" title={ctx.words.comments}>
      <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12"><path fill="none" stroke="currentColor" stroke-width="1.6" d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" /></svg>
      <span class="sr-only">{ctx.words.comments}: </span>
      {count}
    </span>
  );
}

/** One card; it re-renders only when its task (a new object after any change) or the board's context changes. */
export const TaskCard = memo(
  function TaskCard({ task, href, ctx, counts, onKey }: { task: Task; href: string; ctx: CardContext; counts: Counts; onKey: (e: KeyboardEvent) => void }) {
    const owner = task.owner ? ctx.people.get(task.owner) : undefined;
    return (
      <li class="task-card" data-id={task.uuid} data-key={task.key}>
        <a href={href} aria-describedby="drag-help" onKeyDown={onKey}>
          <span class="key">{task.key}</span> <span class="title">{task.title}</span>
        </a>
        <div class="meta">
          {task.priority ? <Priority value={task.priority} label={ctx.words.priority} /> : null}
          {task.labels.map((l) => (ctx.labels.has(l) ? <LabelChip key={l} label={ctx.labels.get(l)!} /> : null))}
          <Due task={task} ctx={ctx} />
          <Subtasks done={counts.subDone} total={counts.subTotal} ctx={ctx} />
          <CommentCount count={counts.comments} ctx={ctx} />
          {task.owner && owner !== undefined ? <Avatar uuid={task.owner} name={owner} label={ctx.words.owner} /> : null}
        </div>
      </li>
    );
  },
  (a, b) => a.task === b.task && a.ctx === b.ctx && a.href === b.href && a.counts.subDone === b.counts.subDone && a.counts.subTotal === b.counts.subTotal && a.counts.comments === b.counts.comments,
);

import type { Knex } from 'knex';
import { isSqlite } from '../connection.ts';

/**
 * A board list filtered by label and column (50,000 tasks: a label on 3,100 of them, a column of 4,000, 412 in
 * both) read every task of the label to keep those of the column: 2–5 ms of SQL for the count and as much for
 * the page. Each label row now carries where its task is, as the search index does (0671, 0890): its column
 * (`state_uuid`) and whether it is live, indexed behind the label, so the label filter reads only the entries
 * at the place listed (412), as a covering index.
 *
 * Triggers keep it exact whoever writes (the task services, bulk writes, a fixture, a seed): a new label row
 * takes its task's place, and a task that changes column or is archived or restored moves its label rows.
 * The index replaces 0890's (label_uuid, task_uuid), its prefix for `where label_uuid = ?`.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_task_labels', (t) => {
    t.string('state_uuid', 36).nullable();
    t.boolean('live').notNullable().defaultTo(true);
  });
  await db.raw(`update plan_task_labels set
    state_uuid = (select t.state_uuid from plan_tasks t where t.uuid = plan_task_labels.task_uuid),
    live = (select t.archived_at is null from plan_tasks t where t.uuid = plan_task_labels.task_uuid)`);
  await db.schema.alterTable('plan_task_labels', (t) => {
    t.index(['label_uuid', 'live', 'state_uuid', 'task_uuid'], 'plan_task_labels_label_place');
    t.dropIndex(['label_uuid', 'task_uuid'], 'plan_task_labels_label_task');
  });
  const moved = '(old.state_uuid is distinct from new.state_uuid or (old.archived_at is null) <> (new.archived_at is null))';
  if (isSqlite(db)) {
    await db.raw(`create trigger plan_task_labels_place after insert on plan_task_labels begin
      update plan_task_labels set
        state_uuid = (select t.state_uuid from plan_tasks t where t.uuid = new.task_uuid),
        live = (select t.archived_at is null from plan_tasks t where t.uuid = new.task_uuid)
      where task_uuid = new.task_uuid and label_uuid = new.label_uuid;
    end`);
    await db.raw(`create trigger plan_tasks_label_place after update of state_uuid, archived_at on plan_tasks
      when ${moved.replace('is distinct from', 'is not')} begin
      update plan_task_labels set state_uuid = new.state_uuid, live = new.archived_at is null where task_uuid = new.uuid;
    end`);
    return;
  }
  await db.raw(`create function plan_task_labels_place() returns trigger language plpgsql as $$
    begin
      select t.state_uuid, t.archived_at is null into new.state_uuid, new.live from plan_tasks t where t.uuid = new.task_uuid;
      return new;
    end $$`);
  await db.raw('create trigger plan_task_labels_place before insert on plan_task_labels for each row execute function plan_task_labels_place()');
  await db.raw(`create function plan_tasks_label_place() returns trigger language plpgsql as $$
    begin
      update plan_task_labels set state_uuid = new.state_uuid, live = new.archived_at is null where task_uuid = new.uuid;
      return null;
    end $$`);
  await db.raw(`create trigger plan_tasks_label_place after update of state_uuid, archived_at on plan_tasks
    for each row when ${moved} execute function plan_tasks_label_place()`);
}

export async function down(db: Knex): Promise<void> {
  if (isSqlite(db)) {
    await db.raw('drop trigger if exists plan_task_labels_place');
    await db.raw('drop trigger if exists plan_tasks_label_place');
  } else {
    await db.raw('drop trigger if exists plan_task_labels_place on plan_task_labels');
    await db.raw('drop trigger if exists plan_tasks_label_place on plan_tasks');
    await db.raw('drop function if exists plan_task_labels_place()');
    await db.raw('drop function if exists plan_tasks_label_place()');
  }
  await db.schema.alterTable('plan_task_labels', (t) => {
    t.index(['label_uuid', 'task_uuid'], 'plan_task_labels_label_task');
    t.dropIndex(['label_uuid', 'live', 'state_uuid', 'task_uuid'], 'plan_task_labels_label_place');
  });
  await db.schema.alterTable('plan_task_labels', (t) => {
    t.dropColumn('state_uuid');
    t.dropColumn('live');
  });
}

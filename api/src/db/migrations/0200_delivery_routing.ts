import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // What the delivery workers need beyond the outbox row of 0010: a stable Standard Webhooks id (the same on
  // every retry), an ordering key (deliveries sharing one go out one at a time, oldest first), the object the
  // delivery belongs to (a webhook subscription, an agent message, a chat message), an encrypted secret for
  // destinations whose secret lives nowhere else (agent webhooks), and when an unsent e-mail was logged.
  await db.schema.alterTable('deliveries', (t) => {
    t.string('webhook_id', 64).nullable();
    t.string('ordering_key', 200).nullable();
    t.string('ref_uuid', 36).nullable();
    t.string('subject_uuid', 36).nullable();
    t.text('secret_encrypted').nullable();
    t.string('held_at', 32).nullable();
    t.index(['ref_uuid']);
    t.index(['subject_uuid']);
    // The workers' due-rows query (status = pending, due, oldest first) reads this index in order, no sort.
    t.index(['status', 'next_attempt_at', 'uuid'], 'deliveries_due_order');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('deliveries', (t) => {
    t.dropIndex(['ref_uuid']);
    t.dropIndex(['subject_uuid']);
    t.dropIndex(['status', 'next_attempt_at', 'uuid'], 'deliveries_due_order');
    for (const column of ['webhook_id', 'ordering_key', 'ref_uuid', 'subject_uuid', 'secret_encrypted', 'held_at']) t.dropColumn(column);
  });
}

import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Several processes sending from one outbox (PostgreSQL): a worker claims due rows for a while (a lease) and
  // renews it while sending; a process that dies stops renewing, its lease lapses and another takes the row.
  await db.schema.alterTable('deliveries', (t) => {
    t.string('claimed_by', 64).nullable();
    t.string('lease_expires_at', 32).nullable();
    // Per-destination order: is an older row of this ordering key still pending, or one of them on the wire?
    t.index(['ordering_key', 'status', 'next_attempt_at'], 'deliveries_ordering_pending');
    // Held e-mails (no SMTP_URL) are found without walking every pending row of the backlog.
    t.index(['channel', 'status', 'held_at'], 'deliveries_channel_held');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('deliveries', (t) => {
    t.dropIndex(['ordering_key', 'status', 'next_attempt_at'], 'deliveries_ordering_pending');
    t.dropIndex(['channel', 'status', 'held_at'], 'deliveries_channel_held');
    t.dropColumn('claimed_by');
    t.dropColumn('lease_expires_at');
  });
}

import type { Knex } from 'knex';

/** How long an invitation's link works, counted from the e-mail that carries it (a resend starts it again). */
const LIFETIME_MS = 7 * 24 * 3600 * 1000;

/**
 * Invitation links expire: `expires_at` is 7 days after the e-mail that carries the current link. Invitations
 * already sent get 7 days from their last e-mail, so a link sent long ago stops and an admin resends it.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('invitations', (t) => {
    t.string('expires_at', 32).nullable();
  });
  const rows: { uuid: string; last_sent_at: string }[] = await db('invitations').select('uuid', 'last_sent_at');
  for (const row of rows) {
    await db('invitations').where({ uuid: row.uuid }).update({ expires_at: new Date(Date.parse(row.last_sent_at) + LIFETIME_MS).toISOString() });
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('invitations', (t) => {
    t.dropColumn('expires_at');
  });
}

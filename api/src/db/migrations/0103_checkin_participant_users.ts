import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('checkin_participant_users', (t) => {
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.primary(['checkin_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_participant_users');
}

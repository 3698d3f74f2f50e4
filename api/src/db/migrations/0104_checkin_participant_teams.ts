import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('checkin_participant_teams', (t) => {
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('team_uuid', 36).notNullable().references('uuid').inTable('teams').onDelete('CASCADE');
    t.primary(['checkin_uuid', 'team_uuid']);
    t.index(['team_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_participant_teams');
}

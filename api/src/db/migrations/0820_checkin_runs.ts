import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // A check-in's asking, per time zone and local day (features/checkin-runs/ask.ts): the row is written in the
  // transaction that writes the slot's prompts into the outbox, so a slot is asked once, whole or not at all.
  await db.schema.createTable('checkin_prompt_slots', (t) => {
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('local_date', 10).notNullable();
    t.string('timezone', 64).notNullable();
    t.string('prompted_at', 32).notNullable();
    t.integer('prompts').notNullable();
    t.primary(['checkin_uuid', 'local_date', 'timezone']);
    t.index(['local_date']);
  });
  // One prompt per participant and day: who was asked, when, how often reminded, and how a reply finds it. Its
  // deliveries (prompt, reminders) carry its uuid as `subject_uuid`; a report's carry the report's.
  await db.schema.createTable('checkin_prompts', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable();
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('run_date', 10).notNullable(); // the person's local day the prompt asks about
    t.string('timezone', 64).notNullable();
    t.string('prompted_at', 32).notNullable();
    t.integer('reminders_sent').notNullable().defaultTo(0);
    t.string('last_reminded_at', 32).nullable();
    t.string('next_reminder_at', 32).nullable(); // null: no reminder due (none left, answered, or past the day)
    t.string('remind_until', 32).notNullable();
    t.string('message_id', 200).notNullable(); // the prompt e-mail's, which its reminders refer to
    t.unique(['checkin_uuid', 'run_date', 'user_uuid']);
    t.index(['next_reminder_at']);
    t.index(['user_uuid', 'run_date']);
  });
  // How an e-mail reply finds its prompt: `reply:<sha-256 of a reply address's secret>` or `message:<Message-ID>`,
  // one of each per e-mail the prompt sent (the prompt and each reminder). Never the sender's address.
  await db.schema.createTable('checkin_reply_keys', (t) => {
    t.string('key', 255).primary();
    t.string('prompt_uuid', 36).notNullable().references('uuid').inTable('checkin_prompts').onDelete('CASCADE');
    t.index(['prompt_uuid']);
  });
  // Answer links: each grants answering one check-in for one person on one day. Only the hash is kept.
  await db.schema.createTable('checkin_answer_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('run_date', 10).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['expires_at']);
  });
  // Each report sent: the team's for a day (`subject` = 'team'), or one person's answer (`subject` = their uuid)
  // when the check-in sends reports one by one. The unique key makes each go once across processes.
  await db.schema.createTable('checkin_reports', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable();
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('report_date', 10).notNullable();
    t.string('subject', 36).notNullable();
    t.string('sent_at', 32).notNullable();
    t.text('destinations').notNullable(); // JSON `["slack:channel:C1", "email:a@b", …]`
    t.unique(['checkin_uuid', 'report_date', 'subject']);
  });
  // Time off: a person away from `start_on` to `end_on` (inclusive, their local days) is neither asked nor reminded.
  await db.schema.createTable('user_time_off', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable();
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('start_on', 10).notNullable();
    t.string('end_on', 10).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['user_uuid', 'end_on']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['user_time_off', 'checkin_reports', 'checkin_answer_tokens', 'checkin_reply_keys', 'checkin_prompts', 'checkin_prompt_slots']) await db.schema.dropTable(table);
}

import type { Knex } from 'knex';

/** Attachments of Plan objects, the stored files waiting to be removed, and reactions. */
export async function up(db: Knex): Promise<void> {
  // One row per file attached to an object (task, comment, goal, project, project update; no foreign key on the
  // object: the object's deletion removes its attachments explicitly, and a sweep catches cascades). `pending`
  // until its bytes are stored and its content checked; then `ready`.
  await db.schema.createTable('plan_attachments', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('object_kind', 16).notNullable();
    t.string('object_uuid', 36).notNullable();
    t.string('board_uuid', 36).nullable();
    t.string('project_uuid', 36).nullable();
    t.string('uploader_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('filename', 255).notNullable();
    t.string('declared_type', 200).notNullable().defaultTo('');
    t.string('content_type', 200).nullable();
    t.string('file_kind', 16).nullable();
    t.bigInteger('declared_size').nullable();
    t.bigInteger('size').nullable();
    t.string('sha256', 64).nullable();
    t.string('storage_key', 200).notNullable();
    t.string('status', 8).notNullable();
    // The presigned upload URL's token (SHA-256 of it) and when the URL, and a pending row, lapse.
    t.string('upload_token_hash', 64).nullable();
    t.string('expires_at', 32).nullable();
    t.string('uploaded_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('confirmed_at', 32).nullable();
    t.index(['object_uuid', 'object_kind']);
    t.index(['status', 'expires_at']);
  });

  // Stored files to remove once the transaction that dropped their rows has committed (a rolled-back deletion
  // keeps its files). The sweep job removes the file, then the row.
  await db.schema.createTable('plan_file_trash', (t) => {
    t.string('storage_key', 200).primary();
    t.string('created_at', 32).notNullable();
  });

  await db.schema.createTable('plan_reactions', (t) => {
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('object_kind', 16).notNullable();
    t.string('object_uuid', 36).notNullable();
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('emoji', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['object_uuid', 'object_kind', 'emoji', 'user_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_reactions');
  await db.schema.dropTable('plan_file_trash');
  await db.schema.dropTable('plan_attachments');
}

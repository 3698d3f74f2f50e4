import type { Knex } from 'knex';
import { isSqlite } from '../connection.ts';

/*
 * Insights (features/insights/) read a check-in's period at once: a year of 200 people is 73,000 responses. Three
 * things keep that read to index scans:
 *
 * - `checkin_answer_values`: each typed answer (numeric, boolean as 1/0, each multiple-choice pick) as a row of its
 *   own, so the aggregates of number, scale and choice questions never parse the responses' JSON. Triggers on
 *   `checkin_responses` keep it (insert; update of `answers`: rewritten; delete: cascade), on both engines, so
 *   every way an answer is written (API, web page, e-mail, chat, MCP) keeps it without knowing of it. Existing
 *   responses are filled in by rewriting their `answers` onto themselves, which runs the update trigger.
 * - responses by (check-in, day, uuid) with the columns insights read: covering for the insights, and the history
 *   list's page (newest first, uuid second) walks it and stops after one page instead of sorting the whole range.
 *   It replaces the (check-in, day) index of 0105, its prefix.
 * - prompts by (check-in, day) with the columns insights read (who, when asked, reminders sent, end of the day).
 */
const TYPED = "('numeric', 'boolean', 'multiple_choice')";
const COLUMNS = 'response_uuid, checkin_uuid, user_uuid, response_date, question_uuid, value_number, value_text';

const sqliteInsert = `
  INSERT INTO checkin_answer_values (${COLUMNS})
  SELECT NEW.uuid, NEW.checkin_uuid, NEW.user_uuid, NEW.response_date, q.uuid,
    CASE v.type WHEN 'integer' THEN v.value WHEN 'real' THEN v.value WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    CASE WHEN v.type = 'text' THEN substr(v.value, 1, 200) END
  FROM json_each(CASE WHEN json_valid(NEW.answers) THEN NEW.answers ELSE '[]' END) AS a
  JOIN checkin_questions AS q ON q.uuid = (CASE WHEN a.type = 'object' THEN json_extract(a.value, '$.uuid') END)
    AND q.checkin_uuid = NEW.checkin_uuid AND q.question_type IN ${TYPED}
  JOIN json_each(a.value, '$.response') AS v
  WHERE v.type IN ('integer', 'real', 'true', 'false', 'text');`;

const postgresFunction = `
CREATE OR REPLACE FUNCTION checkin_answer_values_sync() RETURNS trigger AS $$
DECLARE
  doc jsonb;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM checkin_answer_values WHERE response_uuid = OLD.uuid;
  END IF;
  BEGIN
    doc := NEW.answers::jsonb;
  EXCEPTION WHEN others THEN
    doc := '[]'::jsonb;
  END;
  IF jsonb_typeof(doc) IS DISTINCT FROM 'array' THEN
    RETURN NEW;
  END IF;
  INSERT INTO checkin_answer_values (${COLUMNS})
  SELECT NEW.uuid, NEW.checkin_uuid, NEW.user_uuid, NEW.response_date, q.uuid,
    CASE jsonb_typeof(v.value)
      WHEN 'number' THEN CASE WHEN abs((v.value #>> '{}')::numeric) < 1e300 THEN (v.value #>> '{}')::double precision END
      WHEN 'boolean' THEN CASE WHEN v.value = 'true'::jsonb THEN 1 ELSE 0 END
    END,
    CASE WHEN jsonb_typeof(v.value) = 'string' THEN left(v.value #>> '{}', 200) END
  FROM jsonb_array_elements(doc) AS a(value)
  JOIN checkin_questions AS q ON jsonb_typeof(a.value) = 'object' AND q.uuid = a.value ->> 'uuid'
    AND q.checkin_uuid = NEW.checkin_uuid AND q.question_type IN ${TYPED}
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(a.value -> 'response') = 'array' THEN a.value -> 'response' ELSE jsonb_build_array(a.value -> 'response') END
  ) AS v(value)
  WHERE jsonb_typeof(v.value) IN ('number', 'boolean', 'string');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('checkin_answer_values', (t) => {
    t.bigIncrements('id');
    t.string('response_uuid', 36).notNullable().references('uuid').inTable('checkin_responses').onDelete('CASCADE');
    t.string('checkin_uuid', 36).notNullable();
    t.string('user_uuid', 36).notNullable();
    t.string('response_date', 10).notNullable();
    t.string('question_uuid', 36).notNullable();
    // A number, or a yes/no as 1/0; a multiple-choice pick as its value (at most 200 characters, as options are).
    t.double('value_number').nullable();
    t.string('value_text', 200).nullable();
    t.index(['checkin_uuid', 'response_date', 'question_uuid', 'value_number', 'value_text', 'user_uuid'], 'checkin_answer_values_period');
    t.index(['response_uuid']);
  });
  await db.schema.alterTable('checkin_responses', (t) => {
    t.index(['checkin_uuid', 'response_date', 'uuid', 'user_uuid', 'response_completed', 'has_issue', 'created_at'], 'checkin_responses_period');
    t.dropIndex(['checkin_uuid', 'response_date']);
  });
  await db.schema.alterTable('checkin_prompts', (t) => {
    t.index(['checkin_uuid', 'run_date', 'user_uuid', 'prompted_at', 'reminders_sent', 'remind_until'], 'checkin_prompts_period');
  });
  if (!isSqlite(db)) {
    await db.raw(postgresFunction);
    await db.raw('CREATE TRIGGER checkin_answer_values_insert AFTER INSERT ON checkin_responses FOR EACH ROW EXECUTE FUNCTION checkin_answer_values_sync()');
    await db.raw('CREATE TRIGGER checkin_answer_values_update AFTER UPDATE OF answers ON checkin_responses FOR EACH ROW EXECUTE FUNCTION checkin_answer_values_sync()');
  } else {
    await db.raw(`CREATE TRIGGER checkin_answer_values_insert AFTER INSERT ON checkin_responses BEGIN ${sqliteInsert} END`);
    await db.raw(
      `CREATE TRIGGER checkin_answer_values_update AFTER UPDATE OF answers ON checkin_responses BEGIN DELETE FROM checkin_answer_values WHERE response_uuid = OLD.uuid; ${sqliteInsert} END`,
    );
  }
  await db('checkin_responses').update({ answers: db.ref('answers') });
}

export async function down(db: Knex): Promise<void> {
  const on = isSqlite(db) ? '' : ' ON checkin_responses';
  await db.raw(`DROP TRIGGER IF EXISTS checkin_answer_values_insert${on}`);
  await db.raw(`DROP TRIGGER IF EXISTS checkin_answer_values_update${on}`);
  if (!isSqlite(db)) await db.raw('DROP FUNCTION IF EXISTS checkin_answer_values_sync()');
  await db.schema.alterTable('checkin_prompts', (t) => t.dropIndex([], 'checkin_prompts_period'));
  await db.schema.alterTable('checkin_responses', (t) => {
    t.index(['checkin_uuid', 'response_date']);
    t.dropIndex([], 'checkin_responses_period');
  });
  await db.schema.dropTable('checkin_answer_values');
}

import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { fullName } from '../../lib/names.ts';
import { languageOf } from '../../lib/personal-settings.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import type { NewDelivery } from '../../outbox/deliveries.ts';
import { ORGANIZATION_EVENTS } from '../webhooks/events.ts';
import { participantsOf, questionsOf } from '../checkins/repository.ts';
import { awayOn } from '../../db/time-off.ts';
import { answeredOn } from './people.ts';
import type { Participant } from '../checkins/repository.ts';
import { promptEmail, promptText } from './messages.ts';
import { carryOverLines, openBlockers, previousAnswers } from './carry-over.ts';
import { dueAsking, holidayOf, loopSettings, remindUntil } from './schedule.ts';
import type { LoopSettings } from './schedule.ts';
import { answerUrl, newAnswerToken, newReplyIdentity, storeAnswerTokens, storeReplyKeys } from './tokens.ts';
import { directMessagePlatform, enqueuePrompt, promptCard } from './chat-cards.ts';
import type { PromptMessage } from './chat-cards.ts';
import type { AnswerTokenRow, CheckinRow, PromptRow, QuestionRow, ReplyKeyRow } from '../../db/tables.ts';

/**
 * Asking (issue: check-ins that run themselves). Every minute the job finds each check-in whose time has come
 * today, in its time zone or, with `use_participant_timezone`, in each participant's: one "slot" per check-in,
 * time zone and local day. A slot is asked in one transaction that records it and writes its prompts into the
 * outbox, so a crash neither loses nor repeats a prompt, and a server that was down asks when it is back (the
 * same day only: a slot of a day that has ended is never due). People who already answered that day, people on
 * time off, and people on a public holiday of their calendar (their own, else the check-in's) are not asked.
 */

interface Slot {
  checkin: CheckinRow;
  settings: LoopSettings;
  timezone: string;
  date: string;
}

const LIVE_COLUMNS = ['uuid', 'organization_uuid', 'name', 'active', 'is_archived', 'days', 'time', 'timezone', 'start_on', 'end_on', 'settings', 'created_at', 'is_anonymous', 'report_channels'] as const;

/** The live check-ins (active, not archived), in the columns the loop reads. */
export const liveCheckins = (db: Executor): Promise<CheckinRow[]> =>
  db('checkins').where({ active: true, is_archived: false }).select(...LIVE_COLUMNS) as unknown as Promise<CheckinRow[]>;

/** The slots due by `now` that have not been asked yet. */
export async function dueSlots(db: Executor, now: Date): Promise<Slot[]> {
  const checkins = await liveCheckins(db);
  const personal = checkins.filter((c) => loopSettings(c).personalTimeZones).map((c) => c.uuid);
  const people = personal.length ? await participantsOf(db, personal) : new Map<string, Map<string, Participant>>();
  const candidates: Slot[] = [];
  for (const checkin of checkins) {
    const settings = loopSettings(checkin);
    const zones = settings.personalTimeZones ? new Set([...(people.get(checkin.uuid)?.values() ?? [])].map((p) => p.timezone ?? checkin.timezone)) : new Set([checkin.timezone]);
    for (const timezone of zones) {
      const due = dueAsking(checkin, timezone, now, settings);
      if (due) candidates.push({ checkin, settings, timezone, date: due.date });
    }
  }
  if (candidates.length === 0) return [];
  const done = new Set<string>();
  const dates = [...new Set(candidates.map((s) => s.date))];
  const uuids = [...new Set(candidates.map((s) => s.checkin.uuid))];
  for (let i = 0; i < uuids.length; i += 500) {
    const rows = await db('checkin_prompt_slots').whereIn('local_date', dates).whereIn('checkin_uuid', uuids.slice(i, i + 500)).select('checkin_uuid', 'local_date', 'timezone');
    for (const row of rows) done.add(`${row.checkin_uuid} ${row.local_date} ${row.timezone}`);
  }
  return candidates.filter((s) => !done.has(`${s.checkin.uuid} ${s.date} ${s.timezone}`));
}

/** Asks every slot due by `now`; returns the number of prompts written. */
export async function askDue(db: Db, config: Config, now: Date): Promise<number> {
  let prompts = 0;
  for (const slot of await dueSlots(db, now)) prompts += await db.transaction((trx) => askSlot(trx, config, slot, now));
  return prompts;
}

/** One slot: its record and its prompts (e-mail, and a direct message where the chat platform has them), in `trx`. */
async function askSlot(trx: Executor, config: Config, slot: Slot, now: Date): Promise<number> {
  const { checkin, settings, timezone, date } = slot;
  const claimed = await trx('checkin_prompt_slots')
    .insert({ checkin_uuid: checkin.uuid, local_date: date, timezone, prompted_at: now.toISOString(), prompts: 0 })
    .onConflict(['checkin_uuid', 'local_date', 'timezone'])
    .ignore()
    .returning(['checkin_uuid']);
  if (claimed.length === 0) return 0; // another process asked it
  const everyone = [...((await participantsOf(trx, [checkin.uuid])).get(checkin.uuid)?.values() ?? [])];
  const inZone = settings.personalTimeZones ? everyone.filter((p) => (p.timezone ?? checkin.timezone) === timezone) : everyone;
  const uuids = inZone.map((p) => p.uuid);
  const [answered, away, asked] = [
    await answeredOn(trx, checkin.uuid, uuids, date),
    await awayOn(trx, uuids, date),
    new Set((await trx('checkin_prompts').where({ checkin_uuid: checkin.uuid, run_date: date }).select('user_uuid')).map((r: { user_uuid: string }) => r.user_uuid)),
  ];
  const toAsk = inZone.filter((p) => !answered.has(p.uuid) && !away.has(p.uuid) && !asked.has(p.uuid) && !holidayOf(p, settings, date));
  if (toAsk.length === 0) return 0;
  const questions = await questionsOf(trx, checkin.uuid);
  const written = await writePrompts(trx, config, { checkin, settings, timezone, date, questions, people: toAsk }, now);
  await trx('checkin_prompt_slots').where({ checkin_uuid: checkin.uuid, local_date: date, timezone }).update({ prompts: written });
  return written;
}

export interface PromptBatch {
  checkin: CheckinRow;
  settings: LoopSettings;
  timezone: string;
  date: string;
  questions: QuestionRow[];
  people: Participant[];
}

/**
 * Writes one prompt per person, with its answer link, its e-mail (reply address and Message-ID of its own) and,
 * where the chat platform has direct messages (Slack), a direct message to answer in (chat-cards.ts); records
 * `checkin.prompted` for those who listen.
 */
export async function writePrompts(trx: Executor, config: Config, batch: PromptBatch, now: Date): Promise<number> {
  const { checkin, settings, timezone, date, questions } = batch;
  const stamp = now.toISOString();
  const until = remindUntil(checkin, date, timezone, settings);
  const firstReminder = new Date(now.getTime() + settings.remindersEveryMinutes * 60_000);
  const reminds = settings.remindersMax > 0 && settings.remindersEveryMinutes > 0 && firstReminder.getTime() < until.getTime();
  const prompts: PromptRow[] = [];
  const tokens: AnswerTokenRow[] = [];
  const keys: ReplyKeyRow[] = [];
  const mails: NewDelivery[] = [];
  const direct: PromptMessage[] = [];
  const platform = await directMessagePlatform(trx, checkin.organization_uuid);
  const uuids = batch.people.map((p) => p.uuid);
  const [previous, blockers] = [await previousAnswers(trx, checkin.uuid, uuids, date), await openBlockers(trx, checkin.uuid, uuids, date)];
  for (const person of batch.people) {
    const { token, row } = newAnswerToken({ checkinUuid: checkin.uuid, userUuid: person.uuid, date, timeZone: timezone }, now);
    const promptUuid = uuidv7(now.getTime());
    const reply = newReplyIdentity(config.inboundEmailDomain, promptUuid);
    keys.push(...reply.keys);
    const prompt: PromptRow = {
      uuid: promptUuid,
      organization_uuid: checkin.organization_uuid,
      checkin_uuid: checkin.uuid,
      user_uuid: person.uuid,
      run_date: date,
      timezone,
      prompted_at: stamp,
      reminders_sent: 0,
      last_reminded_at: null,
      next_reminder_at: reminds ? firstReminder.toISOString() : null,
      remind_until: until.toISOString(),
      message_id: reply.messageId,
    };
    prompts.push(prompt);
    tokens.push(row);
    const url = answerUrl(config, token);
    const carry = carryOverLines(questions, { previous: previous.get(person.uuid) ?? null, blockers: blockers.get(person.uuid) ?? [] });
    const content = { checkin, settings, questions, date, url, lang: languageOf(person), carry };
    if (person.email) {
      const message = promptEmail({ ...content, to: person.email, replyTo: reply.address, messageId: reply.messageId });
      mails.push({ organizationUuid: checkin.organization_uuid, channel: 'email', kind: 'checkin.prompt', destination: person.email, payload: message, webhookId: null, subjectUuid: prompt.uuid });
    }
    if (platform) direct.push({ platform, prompt, person, card: promptCard({ promptUuid: prompt.uuid, checkin, questions, date, url, carry }), text: promptText(content) });
  }
  for (let i = 0; i < prompts.length; i += 50) await trx('checkin_prompts').insert(prompts.slice(i, i + 50));
  await storeAnswerTokens(trx, tokens);
  await storeReplyKeys(trx, keys);
  await enqueueMany(trx, mails, now);
  for (const message of direct) await enqueuePrompt(trx, message, now);
  if (await ORGANIZATION_EVENTS.wanted(trx, checkin.organization_uuid, 'checkin.prompted')) {
    const byUuid = new Map(batch.people.map((p) => [p.uuid, p]));
    for (const prompt of prompts) {
      const person = byUuid.get(prompt.user_uuid)!;
      await ORGANIZATION_EVENTS.record(trx, {
        organizationUuid: checkin.organization_uuid,
        event: 'checkin.prompted',
        payload: {
          uuid: prompt.uuid,
          followup: { uuid: checkin.uuid, id: checkin.uuid, name: checkin.name },
          user: { uuid: person.uuid, full_name: fullName(person), email: person.email },
          response_date: date,
          prompted_at: stamp,
        },
      }, now);
    }
  }
  return prompts.length;
}

import type { Config } from '../../lib/config.ts';
import type { Db, Trx } from '../../db/connection.ts';
import { bool } from '../../lib/json.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import type { NewDelivery } from '../../outbox/deliveries.ts';
import { questionsOf } from '../checkins/repository.ts';
import { promptEmail, promptText } from './messages.ts';
import { carryOverLines, carryOverOf } from './carry-over.ts';
import { directMessagePlatform, enqueueReminder, promptCard } from './chat-cards.ts';
import { loopSettings } from './schedule.ts';
import { answerUrl, newAnswerToken, newReplyIdentity, storeAnswerTokens, storeReplyKeys } from './tokens.ts';
import type { AnswerTokenRow, CheckinRow, Platform, PromptRow, QuestionRow, ReplyKeyRow, UserRow } from '../../db/tables.ts';
import { languageOf, notificationsOf } from '../../lib/personal-settings.ts';

/**
 * Reminders: `reminders_max_count` of them, `reminders_frequency_time` minutes apart, to those asked who have
 * not answered and want reminders, never after the report's time or the end of their day; by e-mail, and as a direct message where
 * the chat platform has them. Due reminders are found by one indexed
 * range (`next_reminder_at <= now`); each batch is claimed by moving `next_reminder_at` in the transaction that
 * writes its e-mails, so a reminder goes once across processes and crashes.
 */
export async function remindDue(db: Db, config: Config, now: Date, batchSize = 500): Promise<number> {
  let sent = 0;
  for (;;) {
    const due: PromptRow[] = await db('checkin_prompts').where('next_reminder_at', '<=', now.toISOString()).limit(batchSize);
    if (due.length === 0) return sent;
    sent += await db.transaction((trx) => remindBatch(trx, config, due, now));
    if (due.length < batchSize) return sent;
  }
}

async function remindBatch(trx: Trx, config: Config, due: PromptRow[], now: Date): Promise<number> {
  const stamp = now.toISOString();
  const checkins = new Map<string, CheckinRow>();
  const questions = new Map<string, QuestionRow[]>();
  for (const uuid of new Set(due.map((p) => p.checkin_uuid))) {
    const checkin: CheckinRow | undefined = await trx('checkins').where({ uuid }).first();
    if (checkin) checkins.set(uuid, checkin);
  }
  const answered = new Set<string>();
  for (const prompt of due) {
    // Answered means every required question is: a day answered in part (an agent's co-authored lines) is reminded.
    const row = await trx('checkin_responses').where({ checkin_uuid: prompt.checkin_uuid, user_uuid: prompt.user_uuid, response_date: prompt.run_date }).first('response_completed');
    if (row && bool(row.response_completed)) answered.add(prompt.uuid);
  }
  const users = new Map<string, Pick<UserRow, 'email' | 'first_name' | 'last_name' | 'is_active' | 'language' | 'notifications'>>();
  for (const row of await trx('users').whereIn('uuid', [...new Set(due.map((p) => p.user_uuid))]).select('uuid', 'email', 'first_name', 'last_name', 'is_active', 'language', 'notifications')) users.set(row.uuid, row);
  const platforms = new Map<string, Platform | null>();
  const away = new Set<string>();
  for (const row of await trx('user_time_off').whereIn('user_uuid', [...users.keys()]).select('user_uuid', 'start_on', 'end_on')) {
    for (const p of due) if (p.user_uuid === row.user_uuid && row.start_on <= p.run_date && p.run_date <= row.end_on) away.add(p.uuid);
  }
  const mails: NewDelivery[] = [];
  const tokens: AnswerTokenRow[] = [];
  const keys: ReplyKeyRow[] = [];
  let sent = 0;
  for (const prompt of due) {
    // The claim: only the transaction that moves this row's next reminder sends it.
    const checkin = checkins.get(prompt.checkin_uuid);
    const user = users.get(prompt.user_uuid);
    const settings = checkin ? loopSettings(checkin) : null;
    const live = checkin && settings && user && (user.is_active === true || user.is_active === 1) && (checkin.active === true || checkin.active === 1) && !(checkin.is_archived === true || checkin.is_archived === 1);
    const count = prompt.reminders_sent + 1;
    // A person who turned reminders off (PATCH /v1/me/ notifications.reminders) gets none.
    const send = live && notificationsOf(user).reminders && !answered.has(prompt.uuid) && !away.has(prompt.uuid) && stamp < prompt.remind_until && count <= settings.remindersMax;
    const next = send && count < settings.remindersMax && settings.remindersEveryMinutes > 0 ? new Date(now.getTime() + settings.remindersEveryMinutes * 60_000).toISOString() : null;
    const moved = await trx('checkin_prompts')
      .where({ uuid: prompt.uuid, next_reminder_at: prompt.next_reminder_at })
      .update(send ? { next_reminder_at: next !== null && next < prompt.remind_until ? next : null, reminders_sent: count, last_reminded_at: stamp } : { next_reminder_at: null });
    if (!moved || !send || !user.email) continue;
    if (!questions.has(checkin.uuid)) questions.set(checkin.uuid, await questionsOf(trx, checkin.uuid));
    const { token, row } = newAnswerToken({ checkinUuid: checkin.uuid, userUuid: prompt.user_uuid, date: prompt.run_date, timeZone: prompt.timezone }, now);
    tokens.push(row);
    // A reply address and Message-ID of its own, which find the same prompt.
    const reply = newReplyIdentity(config.inboundEmailDomain, prompt.uuid);
    keys.push(...reply.keys);
    const carry = carryOverLines(questions.get(checkin.uuid)!, await carryOverOf(trx, checkin.uuid, prompt.user_uuid, prompt.run_date));
    const content = { checkin, settings, questions: questions.get(checkin.uuid)!, date: prompt.run_date, url: answerUrl(config, token), lang: languageOf(user), carry };
    const message = promptEmail({ ...content, to: user.email, replyTo: reply.address, messageId: reply.messageId, inReplyTo: prompt.message_id }, true);
    mails.push({ organizationUuid: prompt.organization_uuid, channel: 'email', kind: 'checkin.reminder', destination: user.email, payload: message, webhookId: null, subjectUuid: prompt.uuid });
    // And a direct message where the chat platform has them, whose "Answer" answers the same prompt.
    if (!platforms.has(prompt.organization_uuid)) platforms.set(prompt.organization_uuid, await directMessagePlatform(trx, prompt.organization_uuid));
    const platform = platforms.get(prompt.organization_uuid);
    if (platform) {
      const card = promptCard({ promptUuid: prompt.uuid, checkin, questions: content.questions, date: prompt.run_date, url: content.url, carry });
      await enqueueReminder(trx, { platform, prompt, person: user, card, text: promptText(content, true) }, now);
    }
    sent++;
  }
  await storeAnswerTokens(trx, tokens);
  await storeReplyKeys(trx, keys);
  await enqueueMany(trx, mails, now);
  return sent;
}

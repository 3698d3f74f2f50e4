import { randomBytes } from 'node:crypto';
import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import { addDays, startOfLocalDay } from '../../lib/dates.ts';
import type { AnswerTokenRow, ReplyKeyRow } from '../../db/tables.ts';

/**
 * The secrets a prompt hands out. An answer link's token grants exactly one thing: answering one check-in for
 * one person on one day (and editing that answer until the day's report is sent); it expires 12 hours after the
 * person's day ends. A reply address's secret routes an e-mail reply to its prompt. Only hashes are stored.
 */

export const ANSWER_TOKEN = /^[0-9A-Za-z]{43}$/;
export const ANSWER_PATH = '/checkins/answer/';
const REPLY_LOCAL_PART = /^checkin-([0-9a-f]{32})$/;

/** Where links in e-mails point: PUBLIC_URL, or this server on localhost. */
export const publicBase = (config: Config): string => config.publicUrl ?? `http://localhost:${config.port}`;

/** The instant an answer link for `date` in `timeZone` stops working: the end of that day plus 12 hours. */
export const tokenExpiry = (date: string, timeZone: string): Date => new Date(startOfLocalDay(addDays(date, 1), timeZone).getTime() + 12 * 3_600_000);

/** A new answer token and the row that stores its hash. */
export function newAnswerToken(grant: { checkinUuid: string; userUuid: string; date: string; timeZone: string }, now: Date): { token: string; row: AnswerTokenRow } {
  const token = randomBase62(43);
  return {
    token,
    row: {
      token_hash: sha256Hex(token),
      checkin_uuid: grant.checkinUuid,
      user_uuid: grant.userUuid,
      run_date: grant.date,
      expires_at: tokenExpiry(grant.date, grant.timeZone).toISOString(),
      created_at: now.toISOString(),
    },
  };
}

export async function storeAnswerTokens(db: Executor, rows: AnswerTokenRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await db('checkin_answer_tokens').insert(rows.slice(i, i + 100));
}

/** The grant of a token that is well-formed, known and not expired; null otherwise (the caller cannot tell which). */
export async function grantOf(db: Executor, token: string, now: Date): Promise<AnswerTokenRow | null> {
  if (!ANSWER_TOKEN.test(token)) return null;
  const row = await db('checkin_answer_tokens').where({ token_hash: sha256Hex(token) }).first();
  if (!row || row.expires_at <= now.toISOString()) return null;
  return row;
}

/** Deletes expired answer tokens (hourly). */
export const pruneAnswerTokens = (db: Executor, now: Date): Promise<number> => db('checkin_answer_tokens').where('expires_at', '<', now.toISOString()).delete();

export const answerUrl = (config: Config, token: string): string => `${publicBase(config)}${ANSWER_PATH}${token}`;

/**
 * The reply address (`checkin-<secret>@INBOUND_EMAIL_DOMAIN`) and Message-ID of one e-mail of a prompt, with the
 * keys a reply is found by: the address's secret only as its hash.
 */
export function newReplyIdentity(domain: string, promptUuid: string): { address: string; messageId: string; keys: ReplyKeyRow[] } {
  const secret = randomBytes(16).toString('hex');
  const messageId = `<checkin.${randomBytes(12).toString('hex')}@${domain}>`;
  return {
    address: `checkin-${secret}@${domain}`,
    messageId,
    keys: [{ key: `reply:${sha256Hex(secret)}`, prompt_uuid: promptUuid }, { key: messageKey(messageId), prompt_uuid: promptUuid }],
  };
}

/** The key of a Message-ID (angle brackets and case as sent do not matter). */
export const messageKey = (messageId: string): string => `message:${messageId.trim().replace(/^<|>$/g, '').toLowerCase()}`.slice(0, 255);

/** The key of a recipient address, when it is one of our prompts' reply addresses. */
export function replyKeyOf(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const match = REPLY_LOCAL_PART.exec(address.slice(0, at).toLowerCase());
  return match ? `reply:${sha256Hex(match[1])}` : null;
}

export async function storeReplyKeys(db: Executor, rows: ReplyKeyRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await db('checkin_reply_keys').insert(rows.slice(i, i + 200));
}

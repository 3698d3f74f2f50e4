import type { Config } from '../../lib/config.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import type { Platform, QuestionType } from '../../db/tables.ts';
import type { ChatConnection } from './connection.ts';

/**
 * The one interface every chat platform implements (docs/architecture.md, "Chat platforms"). A platform is one
 * folder, `features/chat/<platform>/`, whose `platform.ts` exports a `ChatPlatform` and, when people answer
 * through it, whose `feature.ts` serves its request URLs; `features/chat/platforms.ts` lists them.
 *
 * - **ask**, **remind**, **report**: what the check-in loop hands the platform, as platform-neutral cards
 *   (below); the platform turns each into its own message (Block Kit, an Adaptive Card, a text post).
 * - **send**: puts one outbox delivery on the platform, a step at a time (the post, then each thread reply),
 *   so a retry resumes where it stopped. Every outbound call goes through the delivery outbox.
 * - **receive**: how answers come back. The platform's routes verify each request (a signature, a token),
 *   find the person, and answer through `features/checkin-runs/chat-answers.ts`, the same responses service
 *   as the web page and e-mail replies. `receive` here tells the admin screen the URLs to paste and whether
 *   a connection can take requests.
 *
 * Nothing here knows Slack: the cards carry what a person must see, never a platform's markup.
 */
export interface ChatPlatform {
  readonly kind: Platform;
  /** Its name for people: "Slack". */
  readonly label: string;
  /**
   * Whether prompts, reminders and personal notices go to each person (a direct message). Platforms that post
   * to one connected channel (incoming webhooks) are not asked to deliver prompts at all.
   */
  readonly directMessages: boolean;
  /**
   * ask: one person's prompt, with the way to answer in place (`prompt.answered`: the same message once
   * answered). `text` is the card as plain text (a notification's fallback, or the whole post).
   */
  ask(prompt: PromptCard, text: string): PlatformBody;
  /** remind: the prompt again, to someone who has not answered. */
  remind(prompt: PromptCard, text: string): PlatformBody;
  /** report: a check-in's report, for a channel (or one person's answer, posted as it comes). */
  report(report: ReportCard, text: string): PlatformBody;
  /** Any other post: send-message, kudos announcements, Plan notices, a conversation's next question. */
  post(post: ChatPost): PlatformBody;
  /** A person's check-ins of today, where the platform has a place for it (Slack's App Home). */
  home?(home: HomeCard): PlatformBody;
  /** A person's account on the platform by e-mail, null when it has none (directMessages platforms; cached by the caller). */
  findPerson?(access: PlatformAccess, email: string): Promise<string | null>;
  /** send: the delivery's next step on the platform; returns the progress after it. */
  send(step: SendStep): Promise<SendProgress>;
  /** The channels reports can go to (GET /v1/report-channels/). */
  channels(access: PlatformAccess): Promise<ReportChannel[]>;
  /** The channel of a direct conversation with these people (POST /v1/open-conversation/); absent: the connected channel. */
  openConversation?(access: PlatformAccess, emails: string[]): Promise<string>;
  /** receive: null for a platform people cannot answer through yet. */
  readonly receive: PlatformReceive | null;
}

/** What a platform's message is: its own JSON (a Slack `{text, blocks}`, a Teams activity). */
export type PlatformBody = Record<string, unknown>;

export interface PlatformReceive {
  /** The request URLs to paste into the platform's app settings, with this server's public address. */
  requestUrls(publicBase: string): { name: string; url: string }[];
  /** Why this connection cannot take requests (e.g. no signing secret), or null when it can. */
  problem(connection: ChatConnection): string | null;
  /** Where the app's manifest is, for platforms whose app is created from one (GET /v1/integrations/slack/manifest/). */
  manifestPath?: string;
}

/** What a platform call needs besides its connection. */
export interface PlatformAccess {
  connection: ChatConnection;
  http: OutboundHttp;
  config: Config;
}

/** One step of a chat delivery: the platform reads the payload, calls its API, records what it answered. */
export interface SendStep extends PlatformAccess {
  payload: ChatPayload;
  /** The body of this step (the main post's, rendered by the platform from the payload's message). */
  body: PlatformBody;
  /** The person's id on the platform, by e-mail (looked up once, then cached: chat-platform/people.ts). */
  personId(email: string): Promise<string>;
  /** Where the target's earlier post of this message is (for an edit), and recording where this one went. */
  refs: { get(): Promise<MessageRef | null>; save(ref: MessageRef): Promise<void> };
}

export type SendProgress = ChatPayload['progress'];

export interface MessageRef {
  channel?: string;
  ts?: string;
  message_id?: string;
}

/** A channel reports can go to. */
export interface ReportChannel {
  id: string;
  name: string;
  platform: string;
  type: 'webhook' | 'private' | 'public';
}

/** The body of a delivery's main post: its card as the platform renders it, else its plain post. */
export function bodyOf(platform: ChatPlatform, payload: ChatPayload): PlatformBody {
  const m = payload.message;
  const text = payload.post.text;
  if (m?.kind === 'prompt') return platform.ask(m.prompt, text);
  if (m?.kind === 'reminder') return platform.remind(m.prompt, text);
  if (m?.kind === 'report') return platform.report(m.report, text);
  if (m?.kind === 'home' && platform.home) return platform.home(m.home);
  return platform.post(payload.post);
}

/** The text of the thread reply a step posts (step 1 is the first reply). */
export const replyText = (payload: ChatPayload): string => payload.thread[payload.progress.step - 1] ?? '';

// ---------------------------------------------------------------- what the outbox holds

/** What one chat post says, independent of the platform (send-message, announcements, notices). */
export interface ChatPost {
  text: string;
  buttons: { text: string; url: string; style?: string }[];
  imageUrl: string | null;
}

/** A person (by e-mail: the platform finds them), a channel of the platform, or the connected webhook's channel. */
export type ChatTarget = { type: 'channel'; id: string } | { type: 'user'; email: string } | { type: 'webhook' };

/** What a delivery shows: a plain post, or a card the platform renders its own way. */
export type ChatMessage =
  | { kind: 'post' }
  | { kind: 'prompt'; prompt: PromptCard }
  | { kind: 'reminder'; prompt: PromptCard }
  | { kind: 'report'; report: ReportCard }
  | { kind: 'home'; home: HomeCard };

/** The payload of a `chat` delivery: one message (plus its thread replies) to one target. */
export interface ChatPayload {
  platform: Platform;
  bot_message_id: string;
  target: ChatTarget;
  edit: boolean;
  /** The text of the message (every platform can show it; cards add to it). */
  post: ChatPost;
  /** Absent on rows written before cards (a plain post). */
  message?: ChatMessage;
  thread: string[];
  slack_extra: Record<string, unknown>;
  /** Steps done so far (0 = the main post, then each thread reply), so a retry resumes where it stopped. */
  progress: { step: number; channel?: string; ts?: string; message_id?: string; /** Messages of the step posted so far (a Discord report too long for one). */ part?: number };
}

// ---------------------------------------------------------------- the cards of the check-in loop

/** A question as chat shows it: its type picks the input (text, choices, yes/no, a number). */
export interface ChatQuestion {
  uuid: string;
  text: string;
  type: QuestionType;
  required: boolean;
  choices: { label: string; value: string }[];
  /** multiple_choice: several picks (check boxes) rather than one. Absent on cards written before. */
  multiple?: boolean;
  /** numeric: the bounds, and a scale's or mood's whole numbers (empty for a free number). */
  min?: number | null;
  max?: number | null;
  steps?: number[];
  /** How to answer and when it is asked, in words ("1 = Rough … 5 = Great; only if …"). */
  hint?: string;
}

/** ask / remind: one person's prompt. */
export interface PromptCard {
  /** What answering in place refers to (the button's value): the prompt's uuid. */
  prompt_uuid: string;
  checkin_name: string;
  date: string;
  intro: string | null;
  outro: string | null;
  questions: ChatQuestion[];
  /** The web answer page (a link for those who prefer it). */
  url: string;
  /** Lines the person's earlier days carry over: "Still blocked by …?" and last time's answers. */
  carry?: string[];
  /** The prompt once answered: "Answered ✓", with a way to edit. */
  answered?: boolean;
  /**
   * On an answered prompt, the person's answers of the day by question uuid: a card that shows its inputs again
   * (Teams' "Change my answers") fills them, so saving does not wipe what was there.
   */
  answers?: Record<string, string | number | boolean | string[]>;
  /** A test prompt from the admin screen: answering it saves nothing. */
  test?: boolean;
}

export interface ReportPerson {
  uuid: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface ReportEntry {
  person: ReportPerson;
  answers: { question: string; response: unknown }[];
  hasIssue: boolean;
  /** Every required question answered; an answer in part (an agent's co-authored lines alone) is shown, marked. */
  complete: boolean;
}

/** report: what a check-in's report says (checkin-runs/report.ts builds it). */
export interface ReportCard {
  checkinName: string;
  date: string;
  anonymous: boolean;
  /** One person's answer, posted as it comes (send_reports_one_by_one): no counts, no missing list. */
  single?: boolean;
  answered: ReportEntry[];
  missing: ReportPerson[];
  away: ReportPerson[];
  /** Not answered, on a public holiday of their calendar (issue 36); absent in reports queued before it. */
  holiday?: ReportPerson[];
  /** Answers for the previous report's day given or changed after it went. */
  late?: { date: string; answered: ReportEntry[] };
  /** The team's blockers still open (a team report), longest open first. */
  blockers?: { person: ReportPerson; text: string; days: number }[];
}

/** A person's check-ins of today (the Slack App Home, `/rollcall status`). */
export interface HomeCard {
  name: string;
  checkins: { uuid: string; name: string; date: string; state: 'answered' | 'pending' | 'closed'; prompt_uuid: string | null }[];
}

import { Worker } from 'node:worker_threads';
import { UnreadableMessage } from './inbound-email.ts';
import type { InboundEmail } from './inbound-email.ts';

export { UnreadableMessage } from './inbound-email.ts';
export type { InboundEmail } from './inbound-email.ts';

/**
 * The largest message taken: a reply with its quoted original, an HTML part, a signature's images or a screenshot
 * (attachments are not kept). Refused by size before anything is parsed: SMTP 552 (and the listener advertises
 * SIZE), HTTP 413 `payload_too_large`.
 */
export const MAX_INBOUND_BYTES = 2 * 1024 * 1024;

/** How long the parser's thread may spend on one message. */
export interface ParseLimits {
  /** Reading it (mailparser and the text steps, well under a second at MAX_INBOUND_BYTES): past it, it is unreadable. */
  readMs: number;
  /** Then finding the reply's own text (email-reply-parser): past it, `replyText` stands in for `visibleText`. */
  visibleMs: number;
}
export const PARSE_LIMITS: ParseLimits = { readMs: 20_000, visibleMs: 5_000 };

/** What the server sends the parser's thread (parse-worker.ts), and what it answers. */
export interface ParseJob {
  id: number;
  raw: Uint8Array;
  via: InboundEmail['via'];
  envelopeTo: string[];
}
export type ParseReport =
  | { id: 0; kind: 'ready' }
  | { id: number; kind: 'read'; mail: Omit<InboundEmail, 'visibleText'> }
  | { id: number; kind: 'visible'; text: string }
  | { id: number; kind: 'unreadable'; reason: string }
  | { id: number; kind: 'failed'; reason: string };

/** The thread's heap: a message of MAX_INBOUND_BYTES needs a small part of it; past it the message is unreadable. */
const WORKER_HEAP_MB = 256;
/**
 * An idle thread ends after this long, giving back its memory (about 50 MB resident with the parsers loaded);
 * replies come in bursts after prompts, and starting the thread again costs a few hundred milliseconds of its CPU.
 */
const IDLE_MS = 5 * 60_000;

/**
 * One worker thread that parses received messages, one at a time, in arrival order. Parsing a message from
 * anyone must never hold the server's event loop (mailparser's HTML-to-text conversion once took 30 s for a
 * 2 MiB message, and the reply parser's expressions backtrack on crafted text): here, the worst a message can
 * do is use this thread until its time limit, which then ends the thread (the next message starts another).
 */
class ParserThread {
  #worker: { thread: Worker; ready: Promise<void> } | null = null;
  #idle: NodeJS.Timeout | null = null;
  #tail: Promise<unknown> = Promise.resolve();
  #nextId = 1;

  parse(raw: Buffer, via: InboundEmail['via'], envelopeTo: string[], limits: ParseLimits): Promise<InboundEmail> {
    const run = this.#tail.then(() => this.#run(raw, via, envelopeTo, limits));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** The thread, started if need be, once it has loaded the parsers (which can take seconds on a busy machine). */
  async #start(): Promise<Worker> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    if (!this.#worker) {
      const thread = new Worker(new URL('./parse-worker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
      const ready = new Promise<void>((resolve, reject) => {
        const started = (report: ParseReport) => report.kind === 'ready' && settle(null);
        const failed = (err: Error) => settle(err);
        const ended = () => settle(new Error("the e-mail parser's thread ended as it started"));
        const settle = (err: Error | null) => {
          thread.off('message', started).off('error', failed).off('exit', ended);
          if (err) reject(err);
          else resolve();
        };
        thread.on('message', started).on('error', failed).on('exit', ended);
      });
      this.#worker = { thread, ready };
      ready.catch(() => this.#stop(thread));
    }
    const { thread, ready } = this.#worker;
    thread.ref();
    await ready;
    return thread;
  }

  #stop(thread: Worker): void {
    if (this.#worker?.thread === thread) this.#worker = null;
    void thread.terminate();
  }

  /** Between messages the thread keeps no process alive, and ends once idle for IDLE_MS. */
  #rest(thread: Worker): void {
    thread.unref();
    this.#idle = setTimeout(() => this.#stop(thread), IDLE_MS).unref();
  }

  async #run(raw: Buffer, via: InboundEmail['via'], envelopeTo: string[], limits: ParseLimits): Promise<InboundEmail> {
    const worker = await this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      let read: Omit<InboundEmail, 'visibleText'> | null = null;
      let timer = setTimeout(() => overtime(), limits.readMs);
      const finish = (keepThread: boolean, settle: () => void) => {
        clearTimeout(timer);
        worker.off('message', onReport).off('error', onError).off('exit', onExit);
        if (keepThread) this.#rest(worker);
        else this.#stop(worker);
        settle();
      };
      // The reply's own text is a refinement: without it, the quote cut (replyText) serves.
      const withoutVisible = (mail: Omit<InboundEmail, 'visibleText'>) => () => resolve({ ...mail, visibleText: mail.replyText });
      const overtime = () => {
        // The thread is still at work on this message: only ending it stops the work.
        if (read) finish(false, withoutVisible(read));
        else finish(false, () => reject(new UnreadableMessage(new Error(`reading it took longer than ${limits.readMs / 1000} s`))));
      };
      const onReport = (report: ParseReport) => {
        if (report.id !== id) return;
        if (report.kind === 'read') {
          read = report.mail;
          clearTimeout(timer);
          timer = setTimeout(overtime, limits.visibleMs);
        } else if (report.kind === 'visible' && read) {
          const mail = read;
          finish(true, () => resolve({ ...mail, visibleText: report.text }));
        } else if (report.kind === 'unreadable') finish(true, () => reject(new UnreadableMessage(new Error(report.reason))));
        else finish(true, () => reject(new Error(`the e-mail parser failed: ${report.kind === 'failed' ? report.reason : report.kind}`)));
      };
      const onError = (err: Error & { code?: string }) => {
        if (read) return finish(false, withoutVisible(read));
        const refused = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new UnreadableMessage(new Error('reading it needed more memory than a reply can')) : err;
        finish(false, () => reject(refused));
      };
      const onExit = () => onError(new Error("the e-mail parser's thread ended"));
      worker.on('message', onReport).on('error', onError).on('exit', onExit);
      const bytes = new Uint8Array(raw);
      worker.postMessage({ id, raw: bytes, via, envelopeTo } satisfies ParseJob, [bytes.buffer]);
    });
  }
}

const thread = new ParserThread();

/**
 * The message as the inbound routes see it, parsed on the parser's thread: `UnreadableMessage` when the parser
 * refuses the bytes or they cost more than PARSE_LIMITS to read (a sender's fault, not ours). The caller has
 * already refused anything over MAX_INBOUND_BYTES.
 */
export function parseInbound(raw: Buffer, via: InboundEmail['via'], envelopeTo: string[] = [], limits: ParseLimits = PARSE_LIMITS): Promise<InboundEmail> {
  return thread.parse(raw, via, envelopeTo, limits);
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { AnyObjectSchema, InferType } from 'yup';
import type { Actor } from '../../auth/credentials.ts';
import type { Executor } from '../../db/connection.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { EventReceivers } from '../../outbox/events.ts';
import type { Deps } from '../deps.ts';
import type { IncomingFile } from './files.ts';
import type { PlanQuery } from './query.ts';
import type { WriteUnit } from './write.ts';

/** What the registrar (registrar.ts) hands a Plan route's handler, and what a route lends it. */

export type Params = Record<string, string>;

/** What a read handler gets: what a Plan service reads with (db, actor, now), and the request's ids, query and page. */
export interface ReadCall {
  db: Executor;
  actor: Actor;
  now: Date;
  params: Params;
  query: PlanQuery;
  page: PageRequest;
  /** The app's services, for handlers that hand one to their service (a chat connection's secrets, outbound HTTP). */
  deps: Deps;
  /** The request's headers (If-Match, If-None-Match, …). */
  headers: IncomingHttpHeaders;
  /** This server's address for links in answers: PUBLIC_URL, else the request's own origin. */
  baseUrl: string;
  /** An answer header. An ETag set here answers 304 to a request whose If-None-Match matches it. */
  header(name: string, value: string): void;
}

/** What a write's `prepare` gets: the read side of the call and the parsed body, before the transaction opens. */
export interface PrepareCall<B> extends Omit<ReadCall, 'header'> {
  body: B;
}

/** What a write handler gets: what a Plan service writes with (the operation's transaction, the change log), and the request. */
export interface WriteCall<B, P = undefined> extends WriteUnit {
  params: Params;
  query: PlanQuery;
  body: B;
  /** A route taking a JSON array (`items` in its declaration): its items, each checked against the item schema. */
  items?: unknown[];
  deps: Deps;
  headers: IncomingHttpHeaders;
  baseUrl: string;
  /** What the route's `prepare` found before the transaction opened (network checks, a file's content). */
  prepared: P;
  /** An answer header (Location and ETag are stored with an Idempotency-Key and replayed). */
  header(name: string, value: string): void;
  /** Answers another success status than the route's (POST …/members/ for someone already a member: 200). */
  status(code: number): void;
}

/** What the Plan's features lend the frame: who receives organization events, and who X-Service-Agent-Name names. */
export interface PlanHooks {
  events: EventReceivers;
  resolveAgentName(db: Executor, actor: Actor, header: string | string[] | undefined): Promise<string | null>;
}

export type Body<S> = S extends AnyObjectSchema ? InferType<S> : Record<string, never>;

/**
 * Work a write needs done before its transaction opens, because it waits on the network or the disk (a chat
 * channel looked up on the platform, an uploaded file's content read back): no transaction is held across it.
 */
export type Prepare<S, P> = { prepare?: (call: PrepareCall<Body<S>>) => Promise<P> };

/**
 * How an upload route takes its file: `receive` stores the stream as it arrives (and says how to tell it apart:
 * its digest), `discard` removes it again when the request is refused or replayed, `tooLarge` is the refusal past
 * `maxBytes`.
 */
export interface Receiver<F extends { digest: string }> {
  receive(call: PrepareCall<Record<string, never>>, stream: Readable, file: IncomingFile): Promise<F>;
  discard(call: PrepareCall<Record<string, never>>, file: F): Promise<void>;
  tooLarge(): Error;
}

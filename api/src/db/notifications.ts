import { randomBytes } from 'node:crypto';
import type { Db, Executor } from './connection.ts';
import { isSqlite } from './connection.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * What one process tells the others sharing its database:
 * - `credentials`: a key, user or organization changed; drop resolved credentials (auth/cache.ts);
 * - `settings`: an instance setting changed (the Plan read-only switch, db/settings.ts);
 * - `deliveries`: new outbox rows are waiting (a process without delivery workers wakes those that have them).
 */
export const TOPICS = ['credentials', 'settings', 'deliveries'] as const;
export type Topic = (typeof TOPICS)[number];

const CHANNEL = 'rollcall';
const MAX_RETRY_MS = 10_000;
/** How often a server on SQLite looks whether another process (an operator command) committed to its file. */
const FILE_POLL_MS = 250;

/**
 * Sends `topic` to every process listening on this database. On PostgreSQL it is a NOTIFY: inside a transaction
 * it goes out at commit (never for a rolled-back change). On SQLite there is nothing to send: the server notices
 * the commit itself (`Notifications` watches the file's data version). The admin commands call this after a
 * change; the app publishes through `Notifications`.
 */
export async function notify(db: Executor, topic: Topic, sender = 'operator'): Promise<void> {
  if (isSqlite(db as Db)) return;
  await db.raw('select pg_notify(?, ?)', [CHANNEL, `${topic} ${sender}`]);
}

interface ListenClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (err?: Error) => void): void;
  removeAllListeners(): void;
}
type ListenClientClass = new (config: { connectionString: string; connectionTimeoutMillis: number; keepAlive: boolean }) => ListenClient;

/**
 * Signals between the API processes of one database. `publish` runs this process's subscribers at once and
 * tells the others; `subscribe` registers what a topic triggers here.
 *
 * On PostgreSQL the process LISTENs on a connection of its own (outside the query pool). When that connection
 * drops, it reconnects with backoff, and on every (re)connection runs every subscriber once: a signal sent
 * while it was away is lost, so whatever it would have cleared is cleared then. Until then each cache falls
 * back on its own time bound (60 s for credentials, 2 s for settings).
 *
 * On SQLite one server owns the file, but operator commands (`rollcall admin user deactivate`, `org plan`, …)
 * write it from another process. SQLite's `PRAGMA data_version` changes when another connection commits, so the
 * server reads it every 250 ms and, when it moved, runs every subscriber, as a PostgreSQL server does when told:
 * a deactivation or a plan change made by the operator reaches the running server within a fraction of a second,
 * as one made through the API does. Publishing only runs the local subscribers (the server's own writes are
 * not another connection's).
 */
export class Notifications {
  readonly #db: Db;
  readonly #url: string;
  readonly #logger: Logger;
  readonly #connectTimeoutMs: number;
  readonly #sender = randomBytes(6).toString('hex');
  readonly #subscribers = new Map<Topic, (() => void)[]>();
  #client: ListenClient | null = null;
  #retryMs = 250;
  #retryTimer: NodeJS.Timeout | null = null;
  #started = false;
  #closed = false;
  #connected: Promise<void> | null = null;
  #warned = false;
  #filePoller: NodeJS.Timeout | null = null;

  constructor(db: Db, databaseUrl: string, logger: Logger, options: { connectTimeoutMs?: number } = {}) {
    this.#db = db;
    this.#url = databaseUrl;
    this.#logger = logger;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  }

  /** Whether other processes can hear this one (PostgreSQL) or there are none (SQLite). */
  get shared(): boolean {
    return !isSqlite(this.#db);
  }

  subscribe(topic: Topic, handler: () => void): void {
    this.#subscribers.set(topic, [...(this.#subscribers.get(topic) ?? []), handler]);
  }

  /** Runs the local subscribers of `topic`, then tells the other processes (a failure is logged: their time bounds still hold). */
  async publish(topic: Topic): Promise<void> {
    this.#run(topic);
    if (!this.shared || this.#closed) return;
    try {
      await notify(this.#db, topic, this.#sender);
    } catch (err) {
      this.#logger.warn({ err, topic }, 'could not notify the other processes; their caches expire on their own');
    }
  }

  /** Starts listening (PostgreSQL); resolves once the first LISTEN is in place or has failed (it then keeps retrying). */
  start(): Promise<void> {
    if (this.#started) return this.#connected ?? Promise.resolve();
    this.#started = true;
    this.#connected = this.shared ? this.#listen() : this.#watchFile();
    return this.#connected;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    if (this.#filePoller) clearInterval(this.#filePoller);
    const client = this.#client;
    this.#client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }

  #run(topic: Topic): void {
    for (const handler of this.#subscribers.get(topic) ?? []) {
      try {
        handler();
      } catch (err) {
        this.#logger.error({ err, topic }, 'a notification subscriber failed');
      }
    }
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const Client = (this.#db.client as unknown as { driver: { Client: ListenClientClass } }).driver.Client;
    const client = new Client({ connectionString: this.#url, connectionTimeoutMillis: this.#connectTimeoutMs, keepAlive: true });
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#client = null;
      client.removeAllListeners();
      client.on('error', () => {});
      void client.end().catch(() => {});
      this.#retry(err);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const [topic, sender] = (message.payload ?? '').split(' ');
      if (sender !== this.#sender && (TOPICS as readonly string[]).includes(topic)) this.#run(topic as Topic);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (this.#closed) return;
    if (this.#warned) this.#logger.info('listening for other processes\' changes again');
    this.#warned = false;
    this.#retryMs = 250;
    // Anything signalled while this connection was not listening is lost: act as if every topic had been sent.
    for (const topic of TOPICS) this.#run(topic);
  }

  /** SQLite: what changed the file's data version since the last look (another connection's commit). */
  async #watchFile(): Promise<void> {
    const dataVersion = async (): Promise<number> => {
      const rows = (await this.#db.raw('PRAGMA data_version')) as { data_version: number }[];
      return Number(rows[0]?.data_version);
    };
    let seen = await dataVersion().catch(() => Number.NaN);
    let looking = false;
    this.#filePoller = setInterval(() => {
      if (looking || this.#closed) return;
      looking = true;
      dataVersion()
        .then((version) => {
          if (version !== seen && !Number.isNaN(seen)) for (const topic of TOPICS) this.#run(topic);
          seen = version;
        })
        .catch(() => {}) // the file is busy or closing: look again next time (the caches' own time bounds hold)
        .finally(() => {
          looking = false;
        });
    }, FILE_POLL_MS);
    this.#filePoller.unref();
  }

  #retry(err?: Error): void {
    if (this.#closed) return;
    if (!this.#warned) this.#logger.warn({ err }, 'lost the connection that hears other processes\' changes; reconnecting (caches expire on their own meanwhile)');
    this.#warned = true;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#listen();
    }, this.#retryMs);
    this.#retryTimer.unref();
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
  }
}

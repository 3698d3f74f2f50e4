import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import knex from 'knex';
import type { Knex } from 'knex';
import { DEFAULT_DATABASE_OPTIONS } from '../lib/config.ts';
import type { DatabaseOptions } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { retryTransactions } from './retry.ts';

const require = createRequire(import.meta.url);

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Service functions take either the database or a transaction, so callers decide the unit of work. */
export type Executor = Knex | Knex.Transaction;

/**
 * The only module that knows which database engine runs. SQLite (better-sqlite3) is the embedded default;
 * `postgres://` URLs use the same Knex code through the `pg` driver (the `postgres` test project runs the API
 * suite there too).
 */
const STATEMENT_CACHE_SIZE = 2000;
/**
 * The connection's page cache, in KiB. better-sqlite3 builds SQLite with 16 MB (SQLite's own default is 2 MB), and
 * a server fills it: a delivery backlog's reads, and `pragma optimize` at start. 8 MB measured the same CPU per
 * delivery as 16 (0.45-0.53 ms) with about 12 MB less resident memory; 2 MB cost 25 % more CPU (docs/architecture.md,
 * Memory). A page not in it is read from the OS's file cache.
 */
const SQLITE_PAGE_CACHE_KIB = 8000;
/** How long a SQLite statement waits for another process's write lock (the connection's busy_timeout). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

export const isPostgresUrl = (databaseUrl: string): boolean => /^postgres(ql)?:/.test(databaseUrl);

/** Knex's own warnings (a connection that broke, a failed connection attempt) through the app's logger. */
function knexLog(logger: Logger) {
  const write = (level: 'warn' | 'error' | 'debug') => (message: unknown) => logger[level]({ source: 'knex' }, String(message));
  return { warn: write('warn'), error: write('error'), deprecate: write('warn'), debug: write('debug') };
}

export function createDb(databaseUrl: string, options: DatabaseOptions = DEFAULT_DATABASE_OPTIONS, logger?: Logger): Db {
  if (isPostgresUrl(databaseUrl)) {
    const db = knex({
      client: 'pg',
      ...(logger ? { log: knexLog(logger) } : {}),
      connection: {
        connectionString: databaseUrl,
        // Sent with the connection's start-up: the server cancels a longer statement (and a lock wait) itself.
        ...(options.statementTimeoutMs > 0 ? { statement_timeout: options.statementTimeoutMs } : {}),
        // An unreachable server fails a connection attempt after this long instead of the OS's minutes.
        connectionTimeoutMillis: options.connectTimeoutMs,
        keepAlive: true,
      },
      // A query waits at most this long for a free connection; then it fails and its request answers 503.
      acquireConnectionTimeout: options.connectTimeoutMs,
      pool: { min: 0, max: options.poolSize },
    });
    // A transaction that lost a deadlock, a serialization failure or an insert race runs again (db/retry.ts).
    retryTransactions(db);
    return db;
  }
  const filename = sqliteFilename(databaseUrl);
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
  return knex({
    client: sqliteClient(),
    ...(logger ? { log: knexLog(logger) } : {}),
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { exec(sql: string): unknown; prepare(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        // PRAGMAs through exec(): pragma() would leave Statement objects for the GC (see below).
        // Knex prepares every query afresh; the discarded statements' GC finalizers can abort Node 24
        // (better-sqlite3 Statement::~Statement → RemoveEnvironmentCleanupHook CHECK when a GC runs in a
        // microtask checkpoint). Keeping the statements of the first STATEMENT_CACHE_SIZE distinct SQL texts
        // for the life of the connection removes most of that garbage and the re-preparing cost.
        const prepare = conn.prepare.bind(conn);
        const cache = new Map<string, unknown>();
        conn.prepare = (sql: string) => {
          let statement = cache.get(sql);
          if (statement === undefined) {
            statement = prepare(sql);
            if (cache.size < STATEMENT_CACHE_SIZE) cache.set(sql, statement);
          }
          return statement;
        };
        // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode
        // (only an OS crash can lose the last commits); the busy timeout covers `rollcall admin` running
        // against the same file as the server.
        conn.exec('PRAGMA journal_mode = WAL');
        conn.exec('PRAGMA synchronous = NORMAL');
        conn.exec('PRAGMA foreign_keys = ON');
        conn.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
        conn.exec(`PRAGMA cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
        done(null, conn);
      },
    },
  });
}

type ClientClass = typeof Knex.Client;
let sqliteClientClass: ClientClass | null = null;

interface WhereStatement {
  operator?: string;
  asColumn?: boolean;
  value?: unknown;
}
/** Knex's methods that read (a count is a `select`). */
const READS = new Set(['select', 'first', 'pluck']);
const isPlainValue = (value: unknown): boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * Knex's better-sqlite3 client with two changes, both because SQLite as better-sqlite3 builds it (with STAT4)
 * prepares a statement again on every run when its plan may depend on a bound value.
 *
 * An equality in a read's WHERE compares with `(select ?)` instead of `?`: the planner cannot see the value
 * through the subquery, so the statement keeps its plan (the same index: EXPLAIN QUERY PLAN shows it) and is not
 * prepared again each time it is bound. Measured on one statement, 20,000 runs: a page of a board's labels
 * (ORDER BY, LIMIT) 122 -> 83 µs, its count 28 -> 12 µs, an equality on a non-unique index 37 -> 7 µs; a
 * primary-key lookup, which was never prepared again, 3.1 -> 5.8 µs. Comparison affinity is the same: neither a
 * bound value nor a subquery of one has an affinity of its own.
 *
 * And LIMIT is written into the SQL as a number instead of a bound
 * parameter. SQLite as better-sqlite3 builds it (with STAT4) prepares a statement whose LIMIT is a parameter
 * again on every run, which made every `.first()` lookup 5 to 25 times slower (26 µs instead of 1 to 4 µs,
 * measured; README, "Performance notes").
 * Knex has already parsed the value to an integer, so nothing but a number reaches the SQL text. OFFSET stays
 * a parameter: its values are unbounded, and distinct SQL texts would each be a new prepared statement.
 */
function sqliteClient(): ClientClass {
  if (sqliteClientClass) return sqliteClientClass;
  const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as ClientClass;
  const SqliteQueryCompiler = require('knex/lib/dialects/sqlite3/query/sqlite-querycompiler.js') as new (...args: unknown[]) => object;
  const base = SqliteQueryCompiler.prototype as unknown as {
    _getValueOrParameterFromAttribute(a: string, r?: unknown): unknown;
    whereBasic(statement: WhereStatement): string;
  };
  class StablePlanCompiler extends SqliteQueryCompiler {
    declare single: { limit?: unknown };
    declare method: string;
    _getValueOrParameterFromAttribute(attribute: string, rawValue?: unknown): unknown {
      if (attribute === 'limit' && Number.isSafeInteger(this.single.limit)) return String(this.single.limit);
      return base._getValueOrParameterFromAttribute.call(this, attribute, rawValue);
    }
    whereBasic(statement: WhereStatement): string {
      const sql = base.whereBasic.call(this, statement);
      return READS.has(this.method) && statement.operator === '=' && !statement.asColumn && isPlainValue(statement.value) && sql.endsWith(' = ?')
        ? `${sql.slice(0, -1)}(select ?)`
        : sql;
    }
  }
  class RollcallSqliteClient extends BetterSqlite3Client {
    override queryCompiler(builder: unknown, formatter?: unknown) {
      return new StablePlanCompiler(this, builder, formatter) as ReturnType<Knex.Client['queryCompiler']>;
    }
  }
  sqliteClientClass = RollcallSqliteClient;
  return sqliteClientClass;
}

export function sqliteFilename(databaseUrl: string): string {
  const raw = databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  return raw === ':memory:' ? raw : path.resolve(raw);
}

export const isSqlite = (db: Db): boolean => (db.client as { driverName?: string }).driverName === 'better-sqlite3';

/** PostgreSQL error classes and driver errors that mean "the database cannot be reached or refused the work for now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping or the connection was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled: the statement timeout
  '53300', // too_many_connections
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  'SQLITE_BUSY', // the busy timeout passed with another process holding the file
]);
// Knex prefixes a failed query's message with its SQL: matched anywhere.
const UNAVAILABLE_MESSAGES = /\b(Connection terminated|timeout expired|Client has encountered a connection error|Knex: Timeout acquiring a connection)/;

/**
 * Whether `err` means the database is unreachable or overloaded for now rather than that the request is wrong:
 * a lost or refused connection, no free connection in time, the statement timeout, a deadlock. The request
 * answers 503 with Retry-After (http/errors.ts); the pool opens fresh connections for the next ones.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true; // 08xxx: connection exceptions
  if (name === 'KnexTimeoutError') return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}


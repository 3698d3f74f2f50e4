import { StartupError } from '../lib/config.ts';

/**
 * What a database that cannot be opened at start means for the operator, as one line naming the variable to fix
 * (a StartupError) instead of a driver's stack trace: PostgreSQL unreachable, a refused password or user, a
 * database that does not exist; a SQLite file in a directory this process may not write. Other errors are
 * answered unchanged. Never shows a password.
 */
export function explainStartError(err: unknown, databaseUrl: string): unknown {
  if (!err || typeof err !== 'object' || err instanceof StartupError) return err;
  return /^postgres(ql)?:/.test(databaseUrl) ? explainPostgres(err, databaseUrl) : explainSqlite(err);
}

type DriverError = { code?: unknown; message?: unknown; name?: unknown; errors?: unknown };

function explainPostgres(err: object, databaseUrl: string): unknown {
  const { code, message, name } = err as DriverError;
  const text = typeof message === 'string' ? message : '';
  const target = describeTarget(databaseUrl);
  const fail = (what: string) => new StartupError('DATABASE_URL', what, { cause: err });
  switch (code) {
    case 'ECONNREFUSED':
      return fail(`nothing accepts connections at ${target.address} (connection refused): start PostgreSQL there, or correct the host and port in DATABASE_URL`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(`the host name "${target.host}" could not be resolved: correct the host in DATABASE_URL`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return fail(`${target.address} cannot be reached (${code}): check that PostgreSQL runs there and that the network lets this machine in`);
    case '28P01':
      return fail(`PostgreSQL refused the password of user "${target.user}" at ${target.address}: correct the password in DATABASE_URL (postgres://user:password@host:port/database)`);
    case '28000':
      return fail(`PostgreSQL refused user "${target.user}" at ${target.address} (${text}): create the role, correct the user in DATABASE_URL, or allow it in pg_hba.conf`);
    case '3D000':
      return fail(
        `the database "${target.database}" does not exist at ${target.address}: create it (CREATE DATABASE "${target.database}" ENCODING 'UTF8' TEMPLATE template0) or correct its name in DATABASE_URL`,
      );
    case '42501':
      return fail(`user "${target.user}" may not create tables in "${target.database}" (${text}): grant it (GRANT ALL ON SCHEMA public TO "${target.user}") or use the database's owner`);
  }
  if (/client password must be a string/.test(text)) {
    return fail(`PostgreSQL at ${target.address} asks user "${target.user}" for a password and DATABASE_URL has none: add it (postgres://user:password@host:port/database)`);
  }
  if (name === 'KnexTimeoutError' || /timeout expired|connection timeout/i.test(text)) {
    return fail(`PostgreSQL at ${target.address} did not answer in time: check that it runs there and that the network lets this machine in`);
  }
  if (/does not support SSL|SSL off|no pg_hba.conf entry/i.test(text)) {
    return fail(`${text}: set sslmode in DATABASE_URL (?sslmode=disable or ?sslmode=require) to what the server expects`);
  }
  return err;
}

function explainSqlite(err: object): unknown {
  const { code, message } = err as DriverError;
  if (code === 'EACCES' || code === 'EROFS' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return new StartupError('DATA_DIR', `${String(message)}: this process may not write there; make the directory writable for it, or set DATA_DIR to one that is`, { cause: err });
  }
  return err;
}

/** Where DATABASE_URL points, without its password. */
function describeTarget(databaseUrl: string): { host: string; address: string; user: string; database: string } {
  try {
    const url = new URL(databaseUrl);
    const host = url.hostname || 'localhost';
    const user = decodeURIComponent(url.username) || process.env.PGUSER || process.env.USER || 'postgres';
    return { host, address: `${host}:${url.port || '5432'}`, user, database: decodeURIComponent(url.pathname.slice(1)) || user };
  } catch {
    return { host: '?', address: '?', user: '?', database: '?' };
  }
}

import fs from 'node:fs';
import type { Db } from '../db/connection.ts';
import { systemClock } from '../lib/clock.ts';
import type { Clock } from '../lib/clock.ts';
import { CommandFailure, formatResult } from '../lib/command-line.ts';
import type { Command, Group, Options, Values } from '../lib/command-line.ts';
import { displayDatabaseUrl, loadConfig } from '../lib/config.ts';
import type { Config } from '../lib/config.ts';

/**
 * `rollcall admin …`, the operator commands (CONTRACT §1), as the `rollcall` table's `admin` group: each opens the
 * database the server uses (migrated to this version under the startup lock) and prints what its module returns.
 * The modules are loaded by the command that runs, so `rollcall admin --help` loads none of them.
 */
const ADMIN_NOTES = `ORG is an organization's uuid, slug or name; USER a user's uuid or e-mail. One e-mail address may be a user of
several organizations (user create once per organization); --org then picks which.
DATA_DIR (default: data/ at the repository root) and other relative paths are relative to the repository root,
from whatever directory a command runs.
Add --json to any admin command for machine-readable output.`;

interface OperatorRun {
  settings: Config;
  clock: Clock;
  values: Values;
  args: string[];
}
type AdminRun = OperatorRun & { db: Db };

/** One operator command; what `work` returns is printed (nothing when it prints itself). */
function operator(usage: string, summary: string, options: Options, positionals: number, work: (run: OperatorRun) => Promise<unknown>): Command {
  return {
    usage,
    summary,
    options: { json: { type: 'boolean' }, ...options },
    positionals,
    async run({ values, positionals: args }) {
      const settings = loadConfig();
      await operatorErrors(settings, async () => {
        const result = await work({ settings, clock: systemClock, values, args });
        if (result !== undefined) process.stdout.write(formatResult(result, values.json === true));
      });
    },
  };
}

/** An operator command on the server's database, open and migrated while `work` runs. */
function admin(usage: string, summary: string, options: Options, positionals: number, work: (run: AdminRun) => Promise<unknown>): Command {
  return operator(usage, summary, options, positionals, (run) => withDatabase(run.settings, (db) => work({ ...run, db })));
}

/** The command modules' refusals, as the command line shows them: exit 2, a missing name with the database looked in. */
async function operatorErrors(settings: Config, work: () => Promise<void>): Promise<void> {
  const { CommandError, NotFoundError } = await import('./commands.ts');
  try {
    await work();
  } catch (err) {
    if (err instanceof NotFoundError) throw new CommandFailure(`${err.message} in ${displayDatabaseUrl(settings.databaseUrl)}`, 2);
    if (err instanceof CommandError) throw new CommandFailure(err.message, 2);
    throw err;
  }
}

/**
 * Opens the server's database, migrated, for one command. On a SQLite file that does not exist it stops instead
 * of creating an empty one elsewhere (a wrong DATA_DIR would otherwise look like a missing user).
 */
async function withDatabase<T>(settings: Config, work: (db: Db) => Promise<T>): Promise<T> {
  const [{ createDb, sqliteFilename }, { migrateLatest, withStartupLock }, { explainStartError }] = await Promise.all([
    import('../db/connection.ts'),
    import('../db/migrate.ts'),
    import('../db/start-errors.ts'),
  ]);
  if (!/^postgres(ql)?:/.test(settings.databaseUrl) && !fs.existsSync(sqliteFilename(settings.databaseUrl))) {
    throw new CommandFailure(
      `no database at ${sqliteFilename(settings.databaseUrl)}: start the server once (npm start) or run \`rollcall migrate\` to create it, or set DATA_DIR (or DATABASE_URL) to the one the server uses`,
      2,
    );
  }
  const db = createDb(settings.databaseUrl, settings.database);
  try {
    await withStartupLock(db, settings.databaseUrl, () => migrateLatest(db)).catch((err: unknown) => {
      throw explainStartError(err, settings.databaseUrl);
    });
    return await work(db);
  } finally {
    await db.destroy();
  }
}

const commands = () => import('./commands.ts');
const text = (values: Values, name: string) => values[name] as string | undefined;

export const ADMIN: Group = {
  summary: 'operator commands, on the database the server uses (run them where the server keeps its data)',
  notes: ADMIN_NOTES,
  commands: {
    org: {
      summary: 'organizations',
      commands: {
        create: admin('--name N [--plan free|basic|pro|enterprise] [--beta]', 'create an organization', { name: { type: 'string' }, plan: { type: 'string' }, beta: { type: 'boolean' } }, 0, async ({ db, clock, values }) =>
          (await commands()).createOrganizationCommand(db, clock, { name: text(values, 'name'), plan: text(values, 'plan'), beta: values.beta === true }),
        ),
        plan: admin('ORG PLAN', "change an organization's plan", {}, 2, async ({ db, clock, args }) => (await commands()).setPlanCommand(db, clock, args[0], args[1])),
        beta: admin('ORG on|off', 'turn the beta features (the Plan) on or off', {}, 2, async ({ db, clock, args }) => (await commands()).setBetaCommand(db, clock, args[0], args[1])),
        exchange: admin('ORG on|off', 'let admins act for members with exchange tokens, or not', {}, 2, async ({ db, clock, args }) => (await commands()).setExchangeCommand(db, clock, args[0], args[1])),
      },
    },
    'read-only': admin('on|off', 'Plan writes answer 503 while on (incident switch)', {}, 1, async ({ db, clock, args }) => (await commands()).readOnlyCommand(db, clock, args[0])),
    user: {
      summary: 'users',
      commands: {
        create: admin('--org ORG --email E [--role admin|manager|member|guest] [--first-name F] [--last-name L]', 'create a user in an organization', { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } }, 0, async ({ db, clock, values }) =>
          (await commands()).createUserCommand(db, clock, values as Record<string, string>),
        ),
        deactivate: admin('USER [--org ORG]', 'deactivate a user: their keys and sessions stop working', { org: { type: 'string' } }, 1, async ({ db, clock, values, args }) =>
          (await commands()).deactivateUserCommand(db, clock, args[0], text(values, 'org')),
        ),
      },
    },
    key: {
      summary: 'API keys',
      commands: {
        create: admin('--user USER [--org ORG] [--kind personal|agent|organization] [--name N]', "create an API key for a user (the way back in when the admin's key is lost)", { user: { type: 'string' }, org: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } }, 0, async ({ db, clock, values }) =>
          (await commands()).createKeyCommand(db, clock, values as Record<string, string>),
        ),
      },
    },
    backup: admin('DIR', 'online backup: the SQLite database, its encryption key, a manifest', {}, 1, async ({ db, settings, clock, args }) =>
      (await import('./backup.ts')).backupCommand(db, settings, clock, args[0]),
    ),
    // Restore writes the database file itself (the server must be stopped): it opens no database.
    restore: operator('DIR [--force]', 'put a backup in place (stop the server first; --force replaces data)', { force: { type: 'boolean' } }, 1, async ({ settings, clock, values, args }) =>
      (await import('./backup.ts')).restoreCommand(settings, clock, args[0], values.force === true),
    ),
    'forget-secrets': admin('[--yes]', 'the encryption key is lost: remove the webhooks and chat connections it sealed and give workflows new secrets, so the server starts with a new key', { yes: { type: 'boolean' } }, 0, async ({ db, settings, clock, values }) => {
      const [{ forgetSecretsCommand }, { loadSecretBox }] = await Promise.all([import('./forget-secrets.ts'), import('../outbound/encryption-key.ts')]);
      return forgetSecretsCommand(db, clock, values.yes === true, () => loadSecretBox(settings));
    }),
    outbox: admin('[--last N] [--to ADDRESS]', 'recent outgoing e-mail, whole (also what is held while SMTP_URL is unset: sign-in codes, check-in prompts)', { last: { type: 'string' }, to: { type: 'string' } }, 0, async ({ db, settings, values }) => {
      const [outbox, { existingSecretBox }] = await Promise.all([import('./outbox.ts'), import('../outbound/encryption-key.ts')]);
      const mails = await outbox.outboxCommand(db, () => existingSecretBox(settings), { last: text(values, 'last'), to: text(values, 'to') });
      process.stdout.write(values.json === true ? `${JSON.stringify(mails)}\n` : outbox.formatOutbox(mails, settings.smtpUrl !== null));
      return undefined;
    }),
  },
};

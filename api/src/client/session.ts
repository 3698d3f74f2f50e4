import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `rollcall login` keeps: the server, the Bearer token and who it signs in as. */
export interface Session {
  api_url: string;
  token: string;
  expires_at: string;
  user: { uuid: string; email: string; full_name: string };
  organization: { uuid: string; name: string; plan?: string };
}

/** `$XDG_CONFIG_HOME/rollcall/session.json`, `~/.config/rollcall/session.json` without it. */
export function sessionFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'rollcall', 'session.json');
}

export function readSession(file = sessionFile()): Session | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Session>;
    return typeof parsed.token === 'string' && typeof parsed.api_url === 'string' ? (parsed as Session) : null;
  } catch {
    return null;
  }
}

/**
 * Writes the session readable by its owner only: the folder 0700, the file 0600, set again when they existed
 * with wider modes. The file is written beside and renamed, so a crash never leaves half a session.
 */
export function writeSession(session: Session, file = sessionFile()): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

export function removeSession(file = sessionFile()): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

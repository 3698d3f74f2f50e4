import pino from 'pino';
import type { Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line: request headers are not logged at all, and these
 * paths are redacted should any code log an object that carries them.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['*.key', '*.secret', '*.token', '*.password', '*.webhook_secret', 'headers["x-api-key"]', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

import pino from 'pino';
import type { Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line: request headers and bodies are not logged at all,
 * and these paths are redacted should code log an object that carries them. The paths are explicit (no
 * wildcards): a wildcard redaction walks every logged object and cost more than the rest of the access log.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'key', 'secret', 'token', 'password', 'webhook_secret',
          'headers["x-api-key"]', 'headers.authorization',
          'req.headers["x-api-key"]', 'req.headers.authorization',
          'err.config.headers', 'err.request.headers',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

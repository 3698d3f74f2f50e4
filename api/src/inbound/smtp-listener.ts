import type { SMTPServerAddress } from 'smtp-server';
import type { Logger } from '../lib/logger.ts';
import { MAX_INBOUND_BYTES, UnreadableMessage, parseInbound } from './parse.ts';
import type { InboundRoutes } from './registry.ts';

/** Connections at once; a mail server delivering replies needs a few. */
const MAX_SMTP_CLIENTS = 32;

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/**
 * The inbound SMTP listener (INBOUND_SMTP_PORT): accepts mail for INBOUND_EMAIL_DOMAIN only (other
 * recipients get 550, so it is never an open relay), parses each message and hands it to the inbound routes.
 * Put it behind a TLS-terminating MX or a provider that forwards; no authentication is offered.
 */
export async function startInboundSmtp(options: { port: number; host?: string; domain: string; routes: InboundRoutes; logger: Logger }): Promise<InboundSmtp> {
  const domain = options.domain.toLowerCase();
  // Loaded only when the listener is configured (INBOUND_SMTP_PORT).
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    name: domain,
    banner: 'Rollcall inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // Advertised (EHLO: SIZE), so a sender that declares a larger message (MAIL FROM … SIZE=) is refused before
    // sending it; one that does not is refused (552) at its end, having been counted, not kept.
    size: MAX_INBOUND_BYTES,
    rejectOversized: true,
    // Each connection holds at most one message of MAX_INBOUND_BYTES: this bounds their memory. More wait (421).
    maxClients: MAX_SMTP_CLIENTS,
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const at = address.address.toLowerCase().split('@');
      if (at.length !== 2 || at[1] !== domain) {
        const err = new Error(`5.1.1 <${address.address}>: this server only accepts mail for @${domain}`) as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      // Counted as it streams: past the limit nothing more is kept, and the message is refused once it ends.
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_INBOUND_BYTES) chunks.push(chunk);
        else chunks.length = 0;
      });
      stream.on('end', () => {
        if (size > MAX_INBOUND_BYTES) {
          const err = new Error(`5.3.4 Message too large: at most ${MAX_INBOUND_BYTES} bytes`) as Error & { responseCode: number };
          err.responseCode = 552;
          return callback(err);
        }
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        parseInbound(Buffer.concat(chunks), 'smtp', envelopeTo)
          .then((mail) => options.routes.route(mail))
          .then(
            () => callback(),
            (err) => {
              if (err instanceof UnreadableMessage) {
                // Sending it again would fail the same way: a permanent refusal, so the sender bounces it.
                const refusal = new Error('5.6.0 The message could not be parsed') as Error & { responseCode: number };
                refusal.responseCode = 554;
                return callback(refusal);
              }
              options.logger.error({ err }, 'inbound e-mail could not be handled');
              const failure = new Error('4.3.0 Temporary failure, try again later') as Error & { responseCode: number };
              failure.responseCode = 451;
              callback(failure);
            },
          );
      });
    },
  });
  server.on('error', (err) => options.logger.error({ err }, 'inbound SMTP error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.logger.info({ port, domain }, 'inbound SMTP listening');
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

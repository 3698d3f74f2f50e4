import { parentPort } from 'node:worker_threads';
import { visibleText } from './message-text.ts';
import { UnreadableMessage } from './inbound-email.ts';
import { readMessage } from './read-message.ts';
import type { ParseJob, ParseReport } from './parse.ts';

/**
 * The parser's worker thread (parse.ts starts it): reads each message it is given, one at a time, and reports in
 * two steps (the message, then its visible text) so that the server can keep the first when the second takes
 * too long.
 */
const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread (inbound/parse.ts)');
const report = (message: ParseReport) => port.postMessage(message);

port.on('message', async (job: ParseJob) => {
  try {
    const mail = await readMessage(Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength), job.via, job.envelopeTo);
    report({ id: job.id, kind: 'read', mail });
    report({ id: job.id, kind: 'visible', text: visibleText(mail.text) });
  } catch (err) {
    report(err instanceof UnreadableMessage ? { id: job.id, kind: 'unreadable', reason: (err.cause as Error)?.message ?? err.message } : { id: job.id, kind: 'failed', reason: (err as Error)?.stack ?? String(err) });
  }
});

// Loaded (mailparser and the reply parser with it): the time limits count from here, not from a cold start.
report({ id: 0, kind: 'ready' });

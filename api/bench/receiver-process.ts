import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The benchmark's webhook receiver, in its own process (a receiver is another system; sharing the sender's
 * event loop would measure the receiver too). Reports `[seq, receivedAt]` pairs in absolute milliseconds.
 * (A child process, not a worker thread: better-sqlite3 aborts at GC when worker threads share its process.)
 */
const here = path.dirname(new URL(import.meta.url).pathname);
const cert = fs.readFileSync(path.join(here, '..', 'test', 'fixtures', 'localhost-cert.pem'));
const key = fs.readFileSync(path.join(here, '..', 'test', 'fixtures', 'localhost-key.pem'));
const verifier = new Webhook(process.env.BENCH_SECRET!);
let pending: [number, number][] = [];
let verified = 0;

const server = https.createServer({ key, cert, keepAlive: true }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const seq = JSON.parse(body).body.seq as number;
    if (seq >= 0 && seq % 100 === 0) {
      verifier.verify(body, req.headers as Record<string, string>);
      verified++;
    }
    pending.push([seq, at]);
    res.writeHead(204).end();
  });
});
setInterval(() => {
  if (pending.length) {
    process.send!({ receipts: pending, verified });
    pending = [];
  }
}, 20);
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m === 'close') {
    server.closeAllConnections();
    server.close();
    process.exit(0);
  }
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

import type { TestApp } from './harness.ts';
import { startSmtpSink } from './receivers.ts';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

/** Sends what is due in the outbox and returns the sign-in code of the newest e-mail to `to` (the e-mailed-code tests). */
export async function signInCodeFor(t: TestApp, sink: Sink, to: string): Promise<string> {
  await t.deps.delivery.runDue();
  const mail = sink.messages.filter((m) => m.envelopeTo.includes(to)).at(-1);
  const match = /sign-in code is (\d{6})/.exec(mail?.text ?? '');
  if (!match) throw new Error(`no code e-mailed to ${to}: ${mail?.text}`);
  return match[1];
}

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askDue } from '../src/features/checkin-runs/ask.ts';
import { localDate } from '../src/lib/dates.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { CERT_FILE, TEST_CA } from './receivers.ts';
import { serveProcess } from './serve-process.ts';
import { APPLICATION_ID, DISCORD_TOKEN, discordKeys, dmChannel, interactionBody, modalData, signedHeaders, startDiscordStandIn } from './discord-stand-in.ts';
import type { DiscordStandIn } from './discord-stand-in.ts';
import { acknowledgedBeforeKill, killed } from './processes.ts';

const PEOPLE = 60;

/**
 * Store first, then acknowledge: a `rollcall serve` process answering Discord modal submissions is killed (SIGKILL)
 * in the middle of them. Every submission Discord got its 200 for is saved, and its follow-up (the prompt turned
 * "Answered ✓") goes out after the restart. A SQLite file has one server process.
 */
describe.runIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('Crash safety of Discord answers: SIGKILL while modal submissions are answered', () => {
  let t: TestApp;
  let discord: DiscordStandIn;
  const keys = discordKeys();
  const children: ChildProcess[] = [];
  const people: { uuid: string; discord: string; prompt: string }[] = [];
  let checkin: { uuid: string; questions: { uuid: string }[] };
  let date: string;

  beforeAll(async () => {
    discord = await startDiscordStandIn();
    t = await startTestApp({ allowPrivateWebhooks: true }, { DISCORD_API_URL: discord.api }, { ca: TEST_CA });
    t.clock.set(new Date().toISOString());
    date = localDate(t.clock.now(), 'UTC');
    const acme = await t.seedOrganization();
    await t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { platform: { kind: 'discord', bot_token: DISCORD_TOKEN, application_id: APPLICATION_ID, public_key: keys.publicKeyHex } } });
    const users = [];
    for (let i = 0; i < PEOPLE; i++) users.push((await t.seedUser(acme.org.uuid, { email: `p${i}@crash.test` })).user);
    // Their Discord accounts, linked (as POST /v1/me/chat-accounts/ leaves them).
    await t.db('chat_linked_accounts').insert(users.map((u, i) => ({
      organization_uuid: acme.org.uuid, platform: 'discord', external_id: String(1200000000000000100n + BigInt(i)), user_uuid: u.uuid, external_name: null, linked_at: t.clock.now().toISOString(),
    })));
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: acme.adminKey,
      body: { name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: users.map((u) => u.uuid) }, questions: [{ question_type: 'text', question: 'Done?' }] },
    });
    checkin = created.body;
    expect(await askDue(t.db, t.config, t.clock.now())).toBe(PEOPLE);
    for (const [i, user] of users.entries()) {
      const prompt = (await t.db('checkin_prompts').where({ user_uuid: user.uuid }).first('uuid'))!.uuid;
      people.push({ uuid: user.uuid, discord: String(1200000000000000100n + BigInt(i)), prompt });
    }
  });
  afterAll(async () => {
    for (const child of children) await killed(child);
    await t.close();
    await discord.close();
  });

  const serve = async () => {
    const server = await serveProcess({
      NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl,
      DISCORD_API_URL: discord.api, ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_EXTRA_CA_CERTS: CERT_FILE, DELIVERY_POLL_MS: '50',
    });
    children.push(server.child);
    return server;
  };

  /** One person's modal submitted, signed now; true when Discord would have had its 200 and "Saved ✓". */
  async function submit(url: string, person: (typeof people)[number]): Promise<boolean> {
    const raw = interactionBody(5, person.discord, modalData(`rc:m:${checkin.uuid}.${date}.${person.prompt}:1`, { [`q.${checkin.questions[0].uuid}`]: `Answer of ${person.uuid}` }));
    try {
      const res = await fetch(`${url}/v1/integrations/discord/interactions/`, { method: 'POST', headers: signedHeaders(keys, raw, Date.now() / 1000), body: raw });
      return res.status === 200 && ((await res.json()) as { data?: { content?: string } }).data?.content?.startsWith('Saved ✓') === true;
    } catch {
      return false; // the connection died with the process: not acknowledged
    }
  }

  it('every submission acknowledged before the kill is saved, and its "Answered ✓" goes to Discord after the restart', async () => {
    const first = await serve();
    const acknowledged = await acknowledgedBeforeKill(first.child, people, (person) => submit(first.url, person));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // No upper bound: usually the kill cuts the last wave short, but on a quick machine every answer may be in
    // before it, and the restart below is tested either way (nothing acknowledged may be lost).

    // Saved: each acknowledged answer is in the database the process left.
    const saved = new Set((await t.db('checkin_responses').where({ checkin_uuid: checkin.uuid }).select('user_uuid')).map((r) => r.user_uuid));
    expect(acknowledged.filter((p) => !saved.has(p.uuid))).toEqual([]);

    // The restarted server sends what was queued with each answer: the prompt's message "Answered ✓" in each direct message.
    const second = await serve();
    const answered = () => new Set(discord.received.filter((r) => r.json?.content?.includes('Answered ✓')).map((r) => r.url.split('/channels/')[1]?.split('/')[0]));
    for (let i = 0; i < 300 && acknowledged.some((p) => !answered().has(dmChannel(p.discord))); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acknowledged.filter((p) => !answered().has(dmChannel(p.discord)))).toEqual([]);
    // Those the kill cut off answer now, once.
    const rest = people.filter((p) => !acknowledged.includes(p));
    for (const person of rest) expect(await submit(second.url, person)).toBe(true);
    expect(Number((await t.db('checkin_responses').where({ checkin_uuid: checkin.uuid }).count({ n: '*' }))[0].n)).toBe(PEOPLE);
  }, 180_000);
});

import type { TestApp } from './harness.ts';
import { lookupCredential } from '../src/auth/credentials.ts';
import { sha256Hex } from '../src/lib/secrets.ts';
import { EVENTS } from '../src/features/webhooks/schema.ts';
import { createSubscription } from '../src/features/webhooks/service.ts';

/** An organization with one person of each role, for the role matrices of the people and check-in tests. */
export async function seedPeople(t: TestApp, options: { name?: string; beta?: boolean } = {}) {
  const acme = await t.seedOrganization({ name: options.name ?? 'Acme', beta: options.beta });
  const slug = acme.org.slug;
  const manager = await t.seedUser(acme.org.uuid, { role: 'manager', email: `manny@${slug}.test`, firstName: 'Manny' });
  const member = await t.seedUser(acme.org.uuid, { role: 'member', email: `mia@${slug}.test`, firstName: 'Mia' });
  const other = await t.seedUser(acme.org.uuid, { role: 'member', email: `otto@${slug}.test`, firstName: 'Otto' });
  const guest = await t.seedUser(acme.org.uuid, { role: 'guest', email: `gus@${slug}.test`, firstName: 'Gus' });
  return { ...acme, manager, member, other, guest };
}

export type People = Awaited<ReturnType<typeof seedPeople>>;

export const MISSING = '0190c8f4-0000-7000-8000-000000000000';

/**
 * An enabled webhook subscription of the organization to every event, so its events are recorded (recordEvent
 * skips events no subscription wants). Nothing is sent: these tests never run the dispatcher.
 */
export async function subscribeToAllEvents(t: TestApp, adminKey: string): Promise<void> {
  const resolution = await lookupCredential(t.db, { kind: 'api_key', hash: sha256Hex(adminKey) }, t.clock.now());
  if (!resolution.ok) throw new Error('subscribeToAllEvents needs an admin key');
  await createSubscription(t.db, t.deps.secretBox, { allowPrivate: true }, resolution.actor, { hook_url: 'https://127.0.0.1:9/events', subscriptions: [...EVENTS] }, t.clock.now());
}

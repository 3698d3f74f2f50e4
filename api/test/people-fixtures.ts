import type { TestApp } from './harness.ts';

/** An organization with one person of each role, for the role matrices of the people and check-in tests. */
export async function seedPeople(t: TestApp, options: { name?: string } = {}) {
  const acme = await t.seedOrganization({ name: options.name ?? 'Acme' });
  const slug = acme.org.slug;
  const manager = await t.seedUser(acme.org.uuid, { role: 'manager', email: `manny@${slug}.test`, firstName: 'Manny' });
  const member = await t.seedUser(acme.org.uuid, { role: 'member', email: `mia@${slug}.test`, firstName: 'Mia' });
  const other = await t.seedUser(acme.org.uuid, { role: 'member', email: `otto@${slug}.test`, firstName: 'Otto' });
  const guest = await t.seedUser(acme.org.uuid, { role: 'guest', email: `gus@${slug}.test`, firstName: 'Gus' });
  return { ...acme, manager, member, other, guest };
}

export type People = Awaited<ReturnType<typeof seedPeople>>;

export const MISSING = '0190c8f4-0000-7000-8000-000000000000';

import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import type { Me } from '../api.ts';
import { formatDate, formatDateTime, t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';
import { NewCheckin, Webhooks } from './admin-integrations.tsx';
import { ChatConnection } from './admin-chat.tsx';

type Person = Schemas['User'];
type Key = Schemas['ApiKey'];

const ROLES = ['member', 'manager', 'admin', 'guest'] as const;

/**
 * Admin (admins only, as the API allows): people (invite, resend or revoke an invitation, deactivate, reactivate), teams, a new check-in from a
 * template, API keys (a new key is shown once, then only its last four characters), webhooks and deliveries, the
 * chat platform connection.
 */
export function Admin({ me, setTitle }: { me: Me; setTitle: (title: string) => void }) {
  const [people, setPeople] = useState<{ uuid: string; name: string }[]>([]);
  const [teams, setTeams] = useState<{ uuid: string; name: string }[]>([]);
  useEffect(() => setTitle(t('admin.title')), []);
  if (me.role !== 'admin') return <p>{t('admin.only')}</p>;
  return (
    <div>
      <h1>{t('admin.title')}</h1>
      <People me={me} onPeople={setPeople} />
      <Teams onTeams={setTeams} />
      <NewCheckin people={people} teams={teams} />
      <Keys />
      <Webhooks />
      <ChatConnection />
    </div>
  );
}

function People({ me, onPeople }: { me: Me; onPeople: (people: { uuid: string; name: string }[]) => void }) {
  const [people, setPeople] = useState<Person[]>([]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<(typeof ROLES)[number]>('member');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    all('/v1/users/', { query: { include_email: 'true' } }).then((list) => {
      setPeople(list);
      onPeople(list.filter((p) => p.is_active).map((p) => ({ uuid: p.uuid, name: p.full_name })));
    }, (err) => setError(err.message));
  useEffect(() => void load(), []);

  /** One change to people, then the list again; `done` is said once it worked. */
  async function change(action: () => Promise<unknown>, done: string | null = null): Promise<boolean> {
    setError(null);
    setNote(null);
    try {
      await action();
      setNote(done);
      await load();
      return true;
    } catch (err) {
      setError((err as Error).message);
      return false;
    }
  }
  async function invite(e: Event) {
    e.preventDefault();
    if (await change(() => ok(api.POST('/v1/invite-user/', { body: { email, role } })), t('admin.invited', { email }))) setEmail('');
  }
  const setActive = (person: Person, active: boolean) => change(() => ok(api.PATCH('/v1/users/{uuid}/', { params: { path: { uuid: person.uuid } }, body: { is_active: active } })));
  // Resending is invite-user again (a new link for 7 days; the old one stops).
  const resend = (person: Person) => change(() => ok(api.POST('/v1/invite-user/', { body: { email: person.email ?? '' } })), t('admin.resent', { email: person.email ?? '' }));
  const revoke = (person: Person) => {
    if (!person.invitation || !confirm(t('admin.revokeinviteconfirm', { email: person.email ?? '' }))) return;
    const uuid = person.invitation.uuid;
    void change(() => ok(api.DELETE('/v1/invitations/{uuid}/', { params: { path: { uuid } } })), t('admin.revokedinvite', { email: person.email ?? '' }));
  };

  return (
    <section class="card" aria-labelledby="people-title">
      <h2 id="people-title">{t('admin.people')}</h2>
      <table class="table" tabIndex={0}>
        <thead><tr><th scope="col">{t('admin.name')}</th><th scope="col">{t('admin.email')}</th><th scope="col">{t('admin.role')}</th><th scope="col">{t('admin.status')}</th><th scope="col"><span class="sr-only">{t('admin.actions')}</span></th></tr></thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.uuid} class={p.status === 'deactivated' ? 'inactive' : ''}>
              <td>{p.full_name}</td>
              <td>{p.email ?? ''}</td>
              <td>{p.role}</td>
              <td><Status person={p} /></td>
              <td class="actions">
                {p.uuid === me.uuid ? null : p.status === 'active' ? (
                  <button type="button" onClick={() => setActive(p, false)} aria-label={t('admin.deactivate', { name: p.full_name })}>{t('admin.deactivateshort')}</button>
                ) : p.status === 'invited' ? (
                  <>
                    <button type="button" onClick={() => resend(p)} aria-label={t('admin.resend', { email: p.email ?? '' })}>{t('admin.resendshort')}</button>
                    <button type="button" onClick={() => revoke(p)} aria-label={t('admin.revokeinvite', { email: p.email ?? '' })}>{t('admin.revokeshort')}</button>
                  </>
                ) : (
                  <button type="button" onClick={() => setActive(p, true)} aria-label={t('admin.reactivate', { name: p.full_name })}>{t('admin.reactivateshort')}</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form onSubmit={invite} class="inline-form">
        <h3>{t('admin.invite')}</h3>
        <label for="invite-email">{t('admin.email')}</label>
        <input id="invite-email" type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        <label for="invite-role">{t('admin.role')}</label>
        <select id="invite-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as (typeof ROLES)[number])}>
          {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <button type="submit" class="primary">{t('admin.sendinvite')}</button>
      </form>
      {note ? <p class="ok" role="status">{note}</p> : null}
      <ErrorNote message={error} />
    </section>
  );
}

/** A person's state: active, deactivated, or invited with when the link stops working (or that it has). */
function Status({ person }: { person: Person }) {
  if (person.status === 'active') return <>{t('admin.status.active')}</>;
  if (person.status === 'deactivated') return <span class="badge">{t('admin.status.deactivated')}</span>;
  const expired = person.invitation?.status === 'expired';
  return (
    <>
      <span class={expired ? 'badge warn' : 'badge'}>{t('admin.status.invited')}</span>
      {person.invitation ? (
        <>
          {' '}
          <span class="muted small">{expired ? t('admin.inviteexpired') : t('admin.inviteexpires', { date: formatDateTime(person.invitation.expires_at) })}</span>
        </>
      ) : null}
    </>
  );
}

function Teams({ onTeams }: { onTeams: (teams: { uuid: string; name: string }[]) => void }) {
  const [teams, setTeams] = useState<Schemas['Team'][]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const load = () => all('/v1/teams/').then((list) => (setTeams(list), onTeams(list.map((x) => ({ uuid: x.uuid, name: x.name })))), (err) => setError(err.message));
  useEffect(() => void load(), []);
  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      await ok(api.POST('/v1/teams/', { body: { name } }));
      setName('');
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section class="card" aria-labelledby="teams-title">
      <h2 id="teams-title">{t('admin.teams')}</h2>
      <ul class="plain">{teams.map((team) => <li key={team.uuid}>{team.name} <span class="muted">({team.members_count})</span></li>)}</ul>
      <form onSubmit={create} class="inline-form">
        <label for="team-name">{t('admin.newteam')}</label>
        <input id="team-name" required maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit">{t('add')}</button>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

function Keys() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [name, setName] = useState('');
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => all('/v1/api-keys/').then(setKeys, (err) => setError(err.message));
  useEffect(() => void load(), []);
  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const created = await ok(api.POST('/v1/api-keys/', { body: { name } }));
      setFresh({ name: created.name, key: created.key });
      setName('');
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function revoke(key: Key) {
    if (!confirm(t('admin.revokeconfirm', { name: key.name }))) return;
    setError(null);
    try {
      await ok(api.DELETE('/v1/api-keys/{uuid}/', { params: { path: { uuid: key.uuid } } }));
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">{t('admin.keys')}</h2>
      {fresh ? (
        <div class="fresh-key" role="alert">
          <p><strong>{t('admin.keyonce', { name: fresh.name })}</strong></p>
          <code class="secret">{fresh.key}</code>
          <button type="button" onClick={() => setFresh(null)}>{t('admin.keydone')}</button>
        </div>
      ) : null}
      <table class="table" tabIndex={0}>
        <thead><tr><th scope="col">{t('admin.name')}</th><th scope="col">{t('admin.key')}</th><th scope="col">{t('admin.owner')}</th><th scope="col">{t('admin.lastused')}</th><th scope="col"><span class="sr-only">{t('admin.actions')}</span></th></tr></thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.uuid}>
              <td>{k.name}</td>
              <td><code>{k.masked_key}</code></td>
              <td>{k.owner.full_name}</td>
              <td>{k.last_used_at ? formatDate(k.last_used_at) : '—'}</td>
              <td><button type="button" onClick={() => revoke(k)} aria-label={t('admin.revoke', { name: k.name })}>{t('admin.revokeshort')}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form onSubmit={create} class="inline-form">
        <label for="key-name">{t('admin.newkey')}</label>
        <input id="key-name" required maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit" class="primary">{t('admin.createkey')}</button>
      </form>
      <ErrorNote message={error} />
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import type { Me } from '../api.ts';
import { formatDate, t } from '../i18n.ts';
import { Empty, ErrorNote, Markdown } from '../ui.tsx';

interface Kudo {
  uuid: string;
  content: string;
  is_anonymous: boolean;
  giver: { uuid: string; full_name: string } | null;
  receivers: { uuid: string; full_name: string }[];
  company_value: { uuid: string; value: string; emoji: string | null } | string | null;
  created_at: string;
}

interface Value {
  uuid: string;
  value: string;
  emoji: string | null;
}

interface Person {
  uuid: string;
  full_name: string;
  is_active: boolean;
}

/** Kudos I received and gave, and a form to give kudos with a company value. */
export function Kudos({ me }: { me: Me }) {
  const [tab, setTab] = useState<'kudos_received' | 'kudos_given'>('kudos_received');
  const [list, setList] = useState<Kudo[]>([]);
  const [values, setValues] = useState<Value[]>([]);
  const [people, setPeople] = useState<Person[]>([]);
  const [receiver, setReceiver] = useState('');
  const [value, setValue] = useState('');
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    all('/v1/company-values/').then(setValues, () => {});
    all('/v1/users/').then((p) => setPeople(p.filter((x) => x.is_active && x.uuid !== me.uuid)), () => {});
  }, []);
  useEffect(() => {
    ok(api.GET('/v1/kudos/', { params: { query: { filter: tab, page_size: 10 } } })).then((page) => setList(page.results), (err) => setError(err.message));
  }, [tab, reload]);

  async function give(e: Event) {
    e.preventDefault();
    setError(null);
    setSent(false);
    try {
      await ok(api.POST('/v1/kudos/', { body: { content, receivers: [receiver], ...(value ? { company_value: value } : {}) } }));
      setContent('');
      setSent(true);
      setTab('kudos_given');
      setReload(reload + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const valueName = (k: Kudo) => {
    const v = typeof k.company_value === 'string' ? values.find((x) => x.uuid === k.company_value) : k.company_value;
    return v ? `${v.emoji ?? ''} ${v.value}`.trim() : null;
  };

  return (
    <section aria-labelledby="kudos-title" class="card">
      <h2 id="kudos-title">{t('kudos.title')}</h2>
      <div role="tablist" class="tabs" aria-label={t('kudos.title')}>
        {(['kudos_received', 'kudos_given'] as const).map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} onClick={() => setTab(name)}>
            {t(name === 'kudos_received' ? 'kudos.received' : 'kudos.given')}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {list.length === 0 ? <Empty>{t('kudos.none')}</Empty> : null}
        <ul class="plain kudos">
          {list.map((k) => (
            <li key={k.uuid}>
              <p class="muted">
                {k.is_anonymous || !k.giver ? t('kudos.someone') : k.giver.full_name} → {k.receivers.map((r) => r.full_name).join(', ')} · {formatDate(k.created_at)}
                {valueName(k) ? <span class="badge">{valueName(k)}</span> : null}
              </p>
              <Markdown text={k.content} />
            </li>
          ))}
        </ul>
      </div>
      <form onSubmit={give} class="give">
        <h3>{t('kudos.give')}</h3>
        <label for="kudos-to">{t('kudos.to')}</label>
        <select id="kudos-to" required value={receiver} onChange={(e) => setReceiver((e.target as HTMLSelectElement).value)}>
          <option value="">—</option>
          {people.map((p) => <option key={p.uuid} value={p.uuid}>{p.full_name}</option>)}
        </select>
        <label for="kudos-value">{t('kudos.value')}</label>
        <select id="kudos-value" value={value} onChange={(e) => setValue((e.target as HTMLSelectElement).value)}>
          <option value="">{t('kudos.novalue')}</option>
          {values.map((v) => <option key={v.uuid} value={v.uuid}>{`${v.emoji ?? ''} ${v.value}`.trim()}</option>)}
        </select>
        <label for="kudos-content">{t('kudos.message')}</label>
        <textarea id="kudos-content" rows={2} required maxLength={1000} value={content} onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)} />
        <button type="submit" class="primary">{t('kudos.send')}</button>
        {sent ? <p class="ok" role="status">{t('kudos.sent')}</p> : null}
        <ErrorNote message={error} />
      </form>
    </section>
  );
}

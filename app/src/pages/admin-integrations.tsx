import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';

type Hook = Schemas['WebhookSubscription'];
type Delivery = Schemas['Delivery'];
import { formatDate, t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';

const EVENTS = ['followups.response.completed', 'followups.response.updated', 'kudos.posted', 'organization.user_activated', 'organization.user_deactivated', 'tasks.*'];

/** Organization webhooks (subscribe an HTTPS address to events, remove one) and the deliveries log. */
export function Webhooks() {
  const [hooks, setHooks] = useState<Hook[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['followups.response.completed']);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    all('/v1/webhook-subscription/').then(setHooks, (err) => setError(err.message));
    ok(api.GET('/v1/deliveries/', { params: { query: { page_size: 20 } } })).then((page) => setDeliveries(page.results), () => {});
  };
  useEffect(load, []);

  async function add(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      await ok(api.POST('/v1/webhook-subscription/', { body: { hook_url: url, subscriptions: events } }));
      setUrl('');
      load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function remove(hook: Hook) {
    setError(null);
    try {
      await ok(api.DELETE('/v1/webhook-subscription/', { body: { hook_id: hook.hook_id } }));
      load();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <section class="card" aria-labelledby="hooks-title">
      <h2 id="hooks-title">{t('hooks.title')}</h2>
      <ul class="plain">
        {hooks.map((h) => (
          <li key={h.hook_id} class="hook">
            <code>{h.hook_url}</code> · {h.subscriptions.join(', ')}
            {h.active ? null : <span class="badge warn">{t('hooks.disabled')}{h.disabled_reason ? `: ${h.disabled_reason}` : ''}</span>}{' '}
            <button type="button" onClick={() => remove(h)} aria-label={t('hooks.remove', { url: h.hook_url })}>{t('hooks.removeshort')}</button>
          </li>
        ))}
      </ul>
      <form onSubmit={add}>
        <label for="hook-url">{t('hooks.url')}</label>
        <input id="hook-url" type="url" required placeholder="https://" value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
        <fieldset>
          <legend>{t('hooks.events')}</legend>
          {EVENTS.map((ev) => (
            <label key={ev} class="check">
              <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents((e.target as HTMLInputElement).checked ? [...events, ev] : events.filter((x) => x !== ev))} />
              <code>{ev}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">{t('hooks.add')}</button>
      </form>
      <ErrorNote message={error} />
      <h3>{t('hooks.deliveries')}</h3>
      <table class="table" tabIndex={0}>
        <thead><tr><th scope="col">{t('hooks.kind')}</th><th scope="col">{t('hooks.destination')}</th><th scope="col">{t('hooks.status')}</th><th scope="col">{t('hooks.attempts')}</th></tr></thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.uuid}>
              <td>{d.kind}</td>
              <td><code>{d.destination}</code></td>
              <td>{d.status}{d.last_status_code ? ` (${d.last_status_code})` : ''}{d.last_error ? ` · ${d.last_error}` : ''}{d.next_attempt_at ? ` · ${t('hooks.next', { when: formatDate(d.next_attempt_at) })}` : ''}</td>
              <td>{d.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

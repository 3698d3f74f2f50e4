import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { formatDate, t } from '../i18n.ts';
import { Empty, ErrorNote } from '../ui.tsx';

type Notification = Schemas['PlanNotification'];

/** My Plan notifications (GET /v1/plan/inbox/), newest first; opening one marks it read. */
export function Inbox() {
  const [items, setItems] = useState<Notification[] | null>(null);
  const [off, setOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    ok(api.GET('/v1/plan/inbox/', { params: { query: { page_size: 20 } } })).then(
      (page) => setItems(page.results),
      (err) => (err instanceof ApiError && (err.status === 402 || err.status === 403) ? setOff(true) : setError(err.message)),
    );
  useEffect(() => void load(), []);
  if (off) return null;

  const read = async (n: Notification) => {
    if (!n.is_read) await api.POST('/v1/plan/inbox/{notification}/read/', { params: { path: { notification: n.uuid } } }).catch(() => {});
  };
  const unread = items?.filter((n) => !n.is_read).length ?? 0;
  return (
    <section aria-labelledby="inbox-title" class="card">
      <h2 id="inbox-title">
        {t('inbox.title')} {unread ? <span class="badge">{t('inbox.unread', { count: unread })}</span> : null}
      </h2>
      {unread ? <button type="button" onClick={() => api.POST('/v1/plan/inbox/read-all/').then(load)}>{t('inbox.readall')}</button> : null}
      <ErrorNote message={error} />
      {items?.length === 0 ? <Empty>{t('inbox.none')}</Empty> : null}
      <ul class="plain inbox">
        {items?.map((n) => (
          <li key={n.uuid} class={n.is_read ? 'read' : 'unread'}>
            {n.board && n.object_type === 'task' ? (
              <a href={`/app/boards/${n.board}/tasks/${n.object_uuid}/`} onClick={() => read(n)}>{n.title}</a>
            ) : (
              <strong>{n.title}</strong>
            )}
            <p>{n.body}</p>
            <p class="muted">{formatDate(n.created_at)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

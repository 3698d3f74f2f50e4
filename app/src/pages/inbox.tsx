import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.ts';
import { formatDate, t } from '../i18n.ts';
import { Link } from '../router.tsx';
import { Empty, ErrorNote } from '../ui.tsx';

interface Notification {
  uuid: string;
  kind: string;
  object_type: string;
  object_uuid: string;
  board: string | null;
  title: string;
  body: string;
  is_read: boolean;
  created_at: string;
}

/** My Plan notifications (GET /v1/plan/inbox/), newest first; opening one marks it read. */
export function Inbox() {
  const [items, setItems] = useState<Notification[] | null>(null);
  const [off, setOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    get('/v1/plan/inbox/?page_size=20').then(
      (page) => setItems(page.results),
      (err) => (err instanceof ApiError && (err.status === 402 || err.status === 403) ? setOff(true) : setError(err.message)),
    );
  useEffect(() => void load(), []);
  if (off) return null;

  const read = async (n: Notification) => {
    if (!n.is_read) await post(`/v1/plan/inbox/${n.uuid}/read/`).catch(() => {});
  };
  const unread = items?.filter((n) => !n.is_read).length ?? 0;
  return (
    <section aria-labelledby="inbox-title" class="card">
      <h2 id="inbox-title">
        {t('inbox.title')} {unread ? <span class="badge">{t('inbox.unread', { count: unread })}</span> : null}
      </h2>
      {unread ? <button type="button" onClick={() => post('/v1/plan/inbox/read-all/').then(load)}>{t('inbox.readall')}</button> : null}
      <ErrorNote message={error} />
      {items?.length === 0 ? <Empty>{t('inbox.none')}</Empty> : null}
      <ul class="plain inbox">
        {items?.map((n) => (
          <li key={n.uuid} class={n.is_read ? 'read' : 'unread'}>
            {n.board && n.object_type === 'task' ? (
              <Link href={`/app/boards/${n.board}/tasks/${n.object_uuid}/`} onClick={() => read(n)}>{n.title}</Link>
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

import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { Empty, ErrorNote } from '../ui.tsx';

type Blocker = Schemas['CheckinBlocker'];

const age = (days: number) =>
  days === 0 ? t('teamblockers.today') : days === 1 ? t('teamblockers.oneday') : t('teamblockers.days', { days });

/**
 * Beside the team's stand-ups, the chosen check-in's open blockers (who, what, for how long), read from the public API like everything else;
 * admins and managers may resolve anyone's, so only they get a Resolve button. Someone the API does not let read
 * the check-in's blockers (403) simply sees no list.
 */
export function TeamBlockers({ checkin, name, canResolve, saved }: { checkin: string; name: string; canResolve: boolean; saved: unknown }) {
  const [blockers, setBlockers] = useState<Blocker[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    setBlockers(null);
    setError(null);
    setNote(null);
    ok(api.GET('/v1/checkins/{uuid}/blockers/', { params: { path: { uuid: checkin }, query: { state: 'open', page_size: 100 } } })).then(
      (page) => setBlockers(page.results),
      (err) => (err instanceof ApiError && err.status === 403 ? setBlockers(null) : setError(err.message)),
    );
  }, [checkin, saved]);

  async function resolve(b: Blocker) {
    setError(null);
    try {
      await ok(api.POST('/v1/checkins/{uuid}/blockers/{blocker}/resolve/', { params: { path: { uuid: checkin, blocker: b.uuid } } }));
      setBlockers((list) => list?.filter((x) => x.uuid !== b.uuid) ?? null);
      setNote(t('teamblockers.resolved', { text: b.text }));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  if (blockers === null && !error) return null;
  return (
    <section aria-labelledby="team-blockers-title" class="card team-blockers">
      <h2 id="team-blockers-title">{t('teamblockers.title', { name })}</h2>
      <ErrorNote message={error} />
      {note ? <p class="ok" role="status">{note}</p> : null}
      {blockers?.length === 0 ? <Empty>{t('teamblockers.none')}</Empty> : null}
      {blockers?.length ? (
        <ul class="plain blockers">
          {blockers.map((b) => {
            const person = b.user?.full_name ?? t('standups.anonymous');
            return (
              <li key={b.uuid}>
                <strong>{person}</strong>: {b.text} <span class="muted">({age(b.days_open)})</span>
                {canResolve ? (
                  <>
                    {' '}
                    <button type="button" onClick={() => resolve(b)} aria-label={t('teamblockers.resolveNamed', { text: b.text, person })}>
                      {t('teamblockers.resolve')}
                    </button>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

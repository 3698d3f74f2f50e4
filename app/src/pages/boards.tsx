import { useEffect, useState } from 'preact/hooks';
import { all, api, ApiError, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { useLocation } from 'preact-iso';
import { Empty, ErrorNote, Loading } from '../ui.tsx';

/** The Plan boards I can see, and a new board. */
export function Boards({ setTitle }: { setTitle: (title: string) => void }) {
  const { route } = useLocation();
  const [boards, setBoards] = useState<Schemas['PlanBoard'][] | null>(null);
  const [off, setOff] = useState(false);
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setTitle(t('boards.title'));
    all('/v1/plan/boards/').then(setBoards, (err) => (err instanceof ApiError && err.status === 402 ? setOff(true) : setError(err.message)));
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const board = await ok(api.POST('/v1/plan/boards/', { body: { name, key: key.toUpperCase() } }));
      route(`/app/boards/${board.uuid}/`);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  if (off) return <section class="card"><h1>{t('boards.title')}</h1><p>{t('boards.off')}</p></section>;
  return (
    <div>
      <h1>{t('boards.title')}</h1>
      <section class="card" aria-label={t('boards.title')}>
        {boards === null && !error ? <Loading /> : null}
        {boards?.length === 0 ? <Empty>{t('boards.none')}</Empty> : null}
        <ul class="plain board-list">
          {boards?.map((b) => (
            <li key={b.uuid}>
              <a href={`/app/boards/${b.uuid}/`}><span class="key">{b.key}</span> {b.name}</a>
              {b.description ? <p class="muted">{b.description}</p> : null}
            </li>
          ))}
        </ul>
      </section>
      <section class="card" aria-labelledby="new-board">
        <h2 id="new-board">{t('boards.new')}</h2>
        <form onSubmit={create} class="inline-form">
          <label for="board-name">{t('boards.name')}</label>
          <input id="board-name" required maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          <label for="board-key">{t('boards.key')}</label>
          <input id="board-key" required pattern="[A-Za-z][A-Za-z0-9]{1,9}" maxLength={10} value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} aria-describedby="board-key-help" />
          <p id="board-key-help" class="muted">{t('boards.keyhelp')}</p>
          <button type="submit" class="primary">{t('boards.create')}</button>
        </form>
        <ErrorNote message={error} />
      </section>
    </div>
  );
}

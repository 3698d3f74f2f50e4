import { useEffect } from 'preact/hooks';
import type { Me } from '../api.ts';
import { t } from '../i18n.ts';
import { PendingCheckins } from './checkin-answer.tsx';
import { Standups } from './standups.tsx';
import { Kudos } from './kudos.tsx';
import { Inbox } from './inbox.tsx';

/** "Today": what I have to answer, what my team said, kudos, and my Plan notifications. */
export function Today({ me, setTitle }: { me: Me; setTitle: (title: string) => void }) {
  useEffect(() => setTitle(t('today.title')), []);
  return (
    <div class="today">
      <h1>{t('today.hello', { name: me.full_name.split(' ')[0] })}</h1>
      <PendingCheckins />
      <Standups me={me} />
      <div class="columns">
        <Kudos me={me} />
        <Inbox />
      </div>
    </div>
  );
}

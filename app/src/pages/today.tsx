import { useEffect } from 'preact/hooks';
import type { Me } from '../api.ts';
import { t } from '../i18n.ts';
import { FirstSteps } from './first-steps.tsx';
import { PendingCheckins } from './checkin-answer.tsx';
import { Standups } from './standups.tsx';
import { Kudos } from './kudos.tsx';
import { Inbox } from './inbox.tsx';

/**
 * "Today": what to do first (for someone who has just joined), what I have to answer, what my team said, kudos,
 * and my Plan notifications.
 */
export function Today({ me, setTitle, onProfileSaved }: { me: Me; setTitle: (title: string) => void; onProfileSaved: () => void }) {
  useEffect(() => setTitle(t('today.title')), []);
  return (
    <div class="today">
      <h1>{me.first_name ? t('today.hello', { name: me.first_name }) : t('today.welcome', { organization: me.organization.name })}</h1>
      <FirstSteps me={me} onProfileSaved={onProfileSaved} />
      <PendingCheckins />
      <Standups me={me} />
      <div class="columns">
        <Kudos me={me} />
        <Inbox />
      </div>
    </div>
  );
}

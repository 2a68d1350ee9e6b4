import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, api } from '../api';
import { useAuth } from '../auth';
import { type FollowedStore, STORE_FOLLOWS } from '../forms/rules';
import { useI18n } from '../i18n';

type State = 'unknown' | 'following' | 'not-following' | 'saving';

/**
 * Follow a store, to get a mail when it has a new offer. Shoppers only: a visitor is sent to sign
 * in and comes back here; merchants and admins see no button. Rendered on the server as a plain
 * Follow button, it learns the shopper's follows once the page is interactive.
 */
export function FollowButton({ merchantId, storeName }: { merchantId: number; storeName: string }) {
  const { t, msg } = useI18n();
  const { me } = useAuth();
  const [location, navigate] = useLocation();
  const [state, setState] = useState<State>('unknown');
  const [notice, setNotice] = useState<{ text: string; failed?: boolean }>();

  useEffect(() => {
    if (me?.role !== 'user') return;
    let live = true;
    api<FollowedStore[]>('/api/me/follows')
      .then((stores) => {
        if (live)
          setState(stores.some((store) => store.merchantId === merchantId) ? 'following' : 'not-following');
      })
      .catch(() => live && setState('not-following'));
    return () => {
      live = false;
    };
  }, [me, merchantId]);

  if (me && me.role !== 'user') return null;
  const following = state === 'following';

  async function toggle() {
    if (me === undefined) return;
    if (me === null) {
      navigate(`/sign-in?next=${encodeURIComponent(location)}`);
      return;
    }
    const was = state;
    setState('saving');
    setNotice(undefined);
    try {
      if (was === 'following') {
        await api(`/api/me/follows/${merchantId}`, { method: 'DELETE' });
        setState('not-following');
        setNotice({ text: msg(STORE_FOLLOWS.unfollowed) });
      } else {
        const answer = await api<{ message: string }>('/api/me/follows', {
          method: 'POST',
          body: { merchantId },
        });
        setState('following');
        setNotice({ text: msg(answer.message) });
      }
    } catch (error) {
      setState(was);
      const known = error instanceof ApiError && error.status > 0 && error.status < 500;
      setNotice({ text: known ? msg(error.message) : t('follow.failed'), failed: true });
    }
  }

  return (
    <div className="follow">
      <button
        type="button"
        className={following ? 'follow-button following' : 'follow-button'}
        aria-label={t(following ? 'follow.followingLabel' : 'follow.followLabel', { store: storeName })}
        // Until the page knows who is here (and what they follow), a press could not be answered.
        disabled={me === undefined || (me !== null && (state === 'saving' || state === 'unknown'))}
        onClick={toggle}
      >
        {following ? t('follow.following') : t('follow.follow')}
      </button>
      <p role={notice?.failed ? 'alert' : 'status'} className={notice?.failed ? 'error' : 'follow-notice'}>
        {notice?.text}
      </p>
    </div>
  );
}

import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, api, type Earnings, type Profile, type Referral } from '../api';
import { useAuth } from '../auth';
import { Img } from '../components/Img';
import { Field, useForm } from '../forms/Field';
import {
  type ConsentPurpose,
  type FollowedStore,
  MOBILE_NUMBER,
  STORE_FOLLOWS,
  USER_REGISTRATION,
  WHATSAPP_COUNTRY_CODE,
} from '../forms/rules';
import { type ProfileField, serverFieldErrors, validateProfile } from '../forms/validate';
import { type Language, loadTexts, useI18n, usePageTitle, useTexts } from '../i18n';
import { ClaimsSection } from './ClaimsSection';
import { EarningTimeline } from './EarningTimeline';
import { PayoutsSection } from './PayoutsSection';
import { YourDataSection } from './YourDataSection';

const SECTIONS = ['profile', 'earnings', 'claims', 'stores', 'referrals', 'privacy', 'data'] as const;
type Section = (typeof SECTIONS)[number];

/** The texts this page shows beyond the home page's, loaded with its chunk in the address's language. */
export const preload = (lang: Language) =>
  Promise.all([loadTexts('account', lang), loadTexts('stores', lang)]).then(() => undefined);

/** The signed-in user's area: profile, earnings, followed stores, referrals and their data, with a side menu. */
export default function AccountPage({ section, earningId }: { section?: string; earningId?: number }) {
  useTexts('account', 'stores');
  const { t } = useI18n();
  const current: Section = (SECTIONS as readonly string[]).includes(section ?? '')
    ? (section as Section)
    : 'profile';
  usePageTitle(t(`account.${current}`));
  return (
    <div className="account-page">
      <nav aria-label={t('account.menu')} className="account-nav">
        <ul>
          {SECTIONS.map((name) => (
            <li key={name}>
              <Link
                href={name === 'profile' ? '/account' : `/account/${name}`}
                aria-current={name === current ? 'page' : undefined}
              >
                {t(`account.${name}`)}
              </Link>
            </li>
          ))}
          <li>
            <Link href="/account/security">{t('password.securityTitle')}</Link>
          </li>
        </ul>
      </nav>
      <div className="account-content">
        {current === 'profile' && <ProfileSection />}
        {current === 'earnings' && (earningId ? <EarningTimeline id={earningId} /> : <EarningsSection />)}
        {current === 'claims' && <ClaimsSection />}
        {current === 'stores' && <FollowedStoresSection />}
        {current === 'referrals' && <ReferralSection />}
        {current === 'data' && <YourDataSection />}
        {current === 'privacy' && <ConsentsSection />}
      </div>
    </div>
  );
}

const PROFILE_FIELDS: ProfileField[] = ['userName', 'mobileNumber', 'address'];

function ProfileSection() {
  const { t, msg } = useI18n();
  const { refresh } = useAuth();
  const [profile, setProfile] = useState<Profile>();
  const [failed, setFailed] = useState(false);
  const form = useForm<ProfileField>(
    { userName: '', mobileNumber: '', address: '' },
    useCallback(validateProfile, []),
  );
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [problem, setProblem] = useState<string>();
  const { setValues } = form;

  useEffect(() => {
    api<Profile>('/api/me/profile')
      .then((loaded) => {
        setProfile(loaded);
        setValues({
          userName: loaded.userName,
          mobileNumber: loaded.mobileNumber,
          address: loaded.address ?? '',
        });
      })
      .catch(() => setFailed(true));
  }, [setValues]);

  async function save(event: FormEvent) {
    event.preventDefault();
    form.setSubmitted(true);
    setProblem(undefined);
    if (!form.valid) {
      setProblem(msg(USER_REGISTRATION.invalid));
      return;
    }
    setState('saving');
    try {
      const saved = await api<Profile>('/api/me/profile', {
        method: 'PUT',
        body: {
          userName: form.values.userName.trim(),
          mobileNumber: form.values.mobileNumber.trim(),
          address: form.values.address.trim(),
        },
      });
      setProfile(saved);
      setState('saved');
      await refresh();
    } catch (error) {
      setState('idle');
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        form.setServerErrors(serverFieldErrors(error.errors, PROFILE_FIELDS));
      }
      setProblem(
        error instanceof ApiError && error.status > 0 && error.status < 500
          ? msg(error.message)
          : t('account.saveFailed'),
      );
    }
  }

  if (failed)
    return (
      <p className="error" role="alert">
        {t('account.loadFailed')}
      </p>
    );
  if (!profile)
    return (
      <p className="status" role="status">
        {t('common.loading')}
      </p>
    );
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title">{t('account.profile')}</h1>
      <form onSubmit={save} noValidate>
        <Field id="profile-email" label={t('account.email')} value={profile.emailAddress} readOnly />
        <Field
          id="profile-userName"
          label={t('register.userName')}
          required
          autoComplete="name"
          {...form.bind('userName')}
          error={form.shownError('userName')}
        />
        <Field
          id="profile-mobileNumber"
          type="tel"
          inputMode="numeric"
          label={t('register.mobileNumber')}
          required
          autoComplete="tel"
          {...form.bind('mobileNumber')}
          error={form.shownError('mobileNumber')}
        />
        <Field
          id="profile-address"
          label={t('register.address')}
          required
          autoComplete="address-line1"
          {...form.bind('address')}
          error={form.shownError('address')}
        />
        <button type="submit" className="primary" disabled={state === 'saving'}>
          {state === 'saving' ? t('account.saving') : t('account.save')}
        </button>
        <div role="status" className="form-status">
          {state === 'saved' && <p className="success">{t('account.saved')}</p>}
        </div>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}

function EarningsSection() {
  const { t, money, date } = useI18n();
  const [earnings, setEarnings] = useState<Earnings>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    api<Earnings>('/api/me/earnings')
      .then(setEarnings)
      .catch(() => setFailed(true));
  }, []);

  return (
    <section aria-labelledby="earnings-title">
      <h1 id="earnings-title">{t('account.earnings')}</h1>
      {failed ? (
        <p className="error" role="alert">
          {t('earnings.failed')}
        </p>
      ) : earnings === undefined ? (
        <p className="status" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <>
          <dl className="totals">
            {(['pending', 'confirmed', 'paid', 'cancelled'] as const).map((key) => (
              <div key={key}>
                <dt>{t(`earnings.${key}`)}</dt>
                <dd>{money(earnings.totals[key])}</dd>
              </div>
            ))}
          </dl>
          <PayoutsSection />
          <h2>{t('earnings.history')}</h2>
          {earnings.purchaseHistory.length === 0 ? (
            <p className="status">{t('earnings.none')}</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways in its own box, which a keyboard must reach too (WCAG 2.1.1)
            <section className="table-wrap" aria-label={t('earnings.history')} tabIndex={0}>
              <table>
                <caption className="visually-hidden">{t('earnings.history')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('earnings.date')}</th>
                    <th scope="col">{t('earnings.coupon')}</th>
                    <th scope="col">{t('earnings.type')}</th>
                    <th scope="col">{t('earnings.amount')}</th>
                    <th scope="col">{t('earnings.cashback')}</th>
                    <th scope="col">{t('earnings.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {earnings.purchaseHistory.map((entry) => (
                    <tr key={entry.id}>
                      <td>
                        <Link href={`/account/earnings/${entry.id}`}>
                          {date(entry.date)}
                          <span className="visually-hidden">: {t('timeline.open')}</span>
                        </Link>
                      </td>
                      <td>{entry.couponId === null ? '' : `#${entry.couponId}`}</td>
                      <td>{entry.purchaseType}</td>
                      <td>{entry.purchaseAmount === null ? '' : money(entry.purchaseAmount)}</td>
                      <td>{money(entry.cashback)}</td>
                      <td>{t(`earnings.${entry.state}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </section>
  );
}

function ReferralSection() {
  const { t, msg } = useI18n();
  const [referral, setReferral] = useState<Referral>();
  const [failed, setFailed] = useState(false);
  const [copied, setCopied] = useState(false);
  const [mobile, setMobile] = useState('');
  const mobileError =
    mobile && !MOBILE_NUMBER.test(mobile.trim()) ? USER_REGISTRATION.mobileNumber.invalid : undefined;

  useEffect(() => {
    api<Referral>('/api/me/referral')
      .then(setReferral)
      .catch(() => setFailed(true));
  }, []);

  if (failed)
    return (
      <p className="error" role="alert">
        {t('account.loadFailed')}
      </p>
    );
  if (!referral)
    return (
      <p className="status" role="status">
        {t('common.loading')}
      </p>
    );

  const chat = mobile && !mobileError ? `${WHATSAPP_COUNTRY_CODE}${mobile.trim()}` : '';
  const whatsappUrl = `https://wa.me/${chat}?text=${encodeURIComponent(referral.message)}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(referral!.link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <section aria-labelledby="referral-title">
      <h1 id="referral-title">{t('account.referrals')}</h1>
      <p>{t('referral.intro')}</p>
      <p>
        {t('referral.code')}: <strong data-testid="referral-code">{referral.code}</strong>
      </p>
      <div className="field">
        <label htmlFor="referral-link">{t('referral.link')}</label>
        <div className="inline-form">
          <input
            id="referral-link"
            readOnly
            value={referral.link}
            onFocus={(event) => event.target.select()}
          />
          <button type="button" onClick={() => void copy()}>
            {t('referral.copy')}
          </button>
        </div>
        <p role="status" className="form-status">
          {copied ? t('referral.copied') : ''}
        </p>
      </div>
      <div className="field">
        <label htmlFor="referral-mobile">{t('referral.friendMobile')}</label>
        <input
          id="referral-mobile"
          type="tel"
          inputMode="numeric"
          value={mobile}
          aria-invalid={mobileError ? true : undefined}
          aria-describedby={mobileError ? 'referral-mobile-error' : 'referral-mobile-hint'}
          onChange={(event) => setMobile(event.target.value)}
        />
        <p id="referral-mobile-hint" className="hint">
          {t('referral.friendMobileHint')}
        </p>
        {mobileError && (
          <p id="referral-mobile-error" className="error" aria-live="polite">
            {msg(mobileError)}
          </p>
        )}
      </div>
      <a className="button whatsapp" href={whatsappUrl} target="_blank" rel="noopener noreferrer">
        {t('referral.whatsapp')}
      </a>
    </section>
  );
}

function FollowedStoresSection() {
  const { t, msg, date } = useI18n();
  const [stores, setStores] = useState<FollowedStore[]>();
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState<{ text: string; failed?: boolean }>();

  useEffect(() => {
    api<FollowedStore[]>('/api/me/follows')
      .then(setStores)
      .catch(() => setFailed(true));
  }, []);

  async function unfollow(store: FollowedStore) {
    setNotice(undefined);
    try {
      await api(`/api/me/follows/${store.merchantId}`, { method: 'DELETE' });
      setStores((shown) => shown?.filter((other) => other.merchantId !== store.merchantId));
      setNotice({ text: `${store.storeName}: ${msg(STORE_FOLLOWS.unfollowed)}` });
    } catch {
      setNotice({ text: t('follow.failed'), failed: true });
    }
  }

  return (
    <section aria-labelledby="followed-title">
      <h1 id="followed-title">{t('account.stores')}</h1>
      <p>{t('followed.intro')}</p>
      {failed ? (
        <p className="error" role="alert">
          {t('followed.failed')}
        </p>
      ) : stores === undefined ? (
        <p className="status" role="status">
          {t('common.loading')}
        </p>
      ) : stores.length === 0 ? (
        <p className="status">
          {t('followed.none')} <Link href="/stores">{t('followed.browse')}</Link>
        </p>
      ) : (
        <ul className="followed-stores">
          {stores.map((store) => (
            <li key={store.merchantId}>
              <Img
                src={store.logoUrl}
                alt=""
                sizes="48px"
                width={48}
                height={48}
                className="store-tile-logo"
              />
              <div>
                <Link href={`/store/${store.slug}`}>{store.storeName}</Link>
                <p>
                  {t('stores.count', { count: store.liveCoupons })} ·{' '}
                  {t('followed.since', { date: date(store.followedAt) })}
                </p>
              </div>
              <button
                type="button"
                onClick={() => unfollow(store)}
                aria-label={t('followed.unfollowStore', { store: store.storeName })}
              >
                {t('follow.unfollow')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role={notice?.failed ? 'alert' : 'status'} className={notice?.failed ? 'error' : 'form-status'}>
        {notice?.text}
      </p>
    </section>
  );
}

interface CurrentConsent {
  purpose: ConsentPurpose;
  given: boolean;
  noticeVersion: string | null;
  recordedAt: string | null;
}

/**
 * "Your consents": each optional mail with its state and one button that gives or withdraws it.
 * The API records each change (with the notice's version) and stops what a withdrawal covers at once.
 */
function ConsentsSection() {
  const { t, msg, date } = useI18n();
  const [consents, setConsents] = useState<CurrentConsent[]>();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<ConsentPurpose>();
  const [notice, setNotice] = useState<{ text: string; failed?: boolean }>();

  useEffect(() => {
    api<{ consents: CurrentConsent[] }>('/api/me/consents')
      .then((answer) => setConsents(answer.consents))
      .catch(() => setFailed(true));
  }, []);

  async function change(consent: CurrentConsent) {
    setBusy(consent.purpose);
    setNotice(undefined);
    try {
      const answer = await api<{ consents: CurrentConsent[]; message: string }>(
        `/api/me/consents/${consent.purpose}`,
        { method: 'PUT', body: { given: !consent.given } },
      );
      setConsents(answer.consents);
      const name = t(`consents.${consent.purpose}.name`);
      setNotice({
        text:
          consent.purpose === 'newsletter' && !consent.given
            ? `${name}: ${msg(answer.message)} ${t('consents.newsletterPending')}`
            : `${name}: ${msg(answer.message)}`,
      });
    } catch (error) {
      setNotice({
        text:
          error instanceof ApiError && error.status === 400 ? msg(error.message) : t('consents.changeFailed'),
        failed: true,
      });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section aria-labelledby="consents-title">
      <h1 id="consents-title">{t('consents.title')}</h1>
      <p>{t('consents.intro')}</p>
      {failed ? (
        <p className="error" role="alert">
          {t('account.loadFailed')}
        </p>
      ) : consents === undefined ? (
        <p className="status" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <ul className="consent-list">
          {consents.map((consent) => {
            const name = t(`consents.${consent.purpose}.name`);
            return (
              <li key={consent.purpose}>
                <div>
                  <h2>{name}</h2>
                  <p>{t(`consents.${consent.purpose}.what`)}</p>
                  <p className={consent.given ? 'consent-state on' : 'consent-state'}>
                    {consent.given && consent.recordedAt
                      ? t('consents.on', { date: date(consent.recordedAt) })
                      : t('consents.off')}
                  </p>
                </div>
                <button
                  type="button"
                  className={consent.given ? undefined : 'primary'}
                  disabled={busy !== undefined}
                  onClick={() => change(consent)}
                  aria-label={t(consent.given ? 'consents.withdrawNamed' : 'consents.giveNamed', {
                    purpose: name,
                  })}
                >
                  {t(consent.given ? 'consents.withdraw' : 'consents.give')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <p role={notice?.failed ? 'alert' : 'status'} className={notice?.failed ? 'error' : 'form-status'}>
        {notice?.text}
      </p>
      <p className="hint">
        <Link href="/privacy">{t('consents.privacyLink')}</Link>
      </p>
    </section>
  );
}

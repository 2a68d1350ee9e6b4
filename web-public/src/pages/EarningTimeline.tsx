import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, api, type EarningTimeline as Timeline, type TimelineStep } from '../api';
import { marketClock } from '../forms/rules';
import { useI18n } from '../i18n';

/** Hours and minutes in India, as the timeline shows a step's time: "14:05". */
function timeOf(when: string): string {
  const { hour, minute } = marketClock(new Date(when)).parts;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * One earning of the shopper and each step of its life (`/account/earnings/<id>`): the click, the
 * purchase tracked, pending until the date its store is expected to confirm it, confirmed, and
 * the payout that paid it or why it was cancelled. Steps not reached show their expected dates.
 */
export function EarningTimeline({ id }: { id: number }) {
  const { t, money, date } = useI18n();
  const [timeline, setTimeline] = useState<Timeline>();
  const [problem, setProblem] = useState<'notFound' | 'failed'>();

  useEffect(() => {
    setTimeline(undefined);
    setProblem(undefined);
    api<Timeline>(`/api/me/earnings/${id}`)
      .then(setTimeline)
      .catch((error: unknown) =>
        setProblem(error instanceof ApiError && error.status === 404 ? 'notFound' : 'failed'),
      );
  }, [id]);

  const at = (when: string) => t('timeline.at', { date: date(when), time: timeOf(when) });

  /** What a step says beyond its name and time: the store, its confirm days, the payout, the reason. */
  const detail = (step: TimelineStep, earning: Timeline) => {
    switch (step.step) {
      case 'clicked':
        return earning.store ? t('timeline.clickedStore', { store: earning.store.name }) : null;
      case 'pending':
        return earning.store && earning.confirmDays !== null
          ? t('timeline.confirmDays', { store: earning.store.name, count: earning.confirmDays })
          : null;
      case 'paid':
        if (earning.payout?.state === 'paid') return t('timeline.paidByPayout', { id: earning.payout.id });
        if (earning.payout) {
          return t('timeline.inPayout', { id: earning.payout.id, date: date(earning.payout.requestedAt) });
        }
        return step.status === 'upcoming' ? t('timeline.whenPayout') : null;
      case 'cancelled':
        return earning.cancelReason
          ? t('timeline.reason', { reason: earning.cancelReason })
          : t('timeline.noReason');
      default:
        return null;
    }
  };

  return (
    <section aria-labelledby="timeline-title" className="earning-timeline">
      <p>
        <Link href="/account/earnings">{t('timeline.back')}</Link>
      </p>
      {problem ? (
        <>
          <h1 id="timeline-title">{t('timeline.title')}</h1>
          <p className="error" role="alert">
            {t(`timeline.${problem}`)}
          </p>
        </>
      ) : timeline === undefined ? (
        <>
          <h1 id="timeline-title">{t('timeline.title')}</h1>
          <p className="status" role="status">
            {t('common.loading')}
          </p>
        </>
      ) : (
        <>
          <h1 id="timeline-title">
            {timeline.store ? timeline.store.name : t('timeline.referral')}
            <span className="visually-hidden">: {t('timeline.title')}</span>
          </h1>
          <dl className="totals">
            {timeline.purchaseAmount !== null && (
              <div>
                <dt>{t('earnings.amount')}</dt>
                <dd>{money(timeline.purchaseAmount)}</dd>
              </div>
            )}
            <div>
              <dt>{t('earnings.cashback')}</dt>
              <dd>{money(timeline.cashback)}</dd>
            </div>
            <div>
              <dt>{t('earnings.state')}</dt>
              <dd>{t(`earnings.${timeline.state}`)}</dd>
            </div>
          </dl>
          <h2>{t('timeline.steps')}</h2>
          <ol className="timeline">
            {timeline.steps.map((step) => {
              const more = detail(step, timeline);
              return (
                <li
                  key={step.step}
                  className={`timeline-step timeline-${step.status}`}
                  aria-current={step.status === 'current' ? 'step' : undefined}
                >
                  <span className="timeline-name">{t(`timeline.${step.step}`)}</span>{' '}
                  <span className="timeline-status">{t(`timeline.${step.status}`)}</span>
                  {step.at && step.status !== 'upcoming' && (
                    <>
                      {' '}
                      <time dateTime={step.at}>{at(step.at)}</time>
                    </>
                  )}
                  {step.expectedAt && step.status !== 'done' && (
                    <span className="timeline-expected">
                      {t('timeline.expected', { date: date(step.expectedAt) })}
                    </span>
                  )}
                  {more && <span className="timeline-detail">{more}</span>}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}

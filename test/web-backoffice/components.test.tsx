/** @jest-environment @happy-dom/jest-environment */
import { describe, expect, it, jest } from '@jest/globals';
import { PAYOUT, PAYOUT_RULES } from '@offers/api/rules';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nContextProvider, memoryStore, RecordContextProvider, StoreContextProvider } from 'react-admin';
import { DateField } from '../../web-backoffice/src/common/DateField';
import {
  type AdviceStep,
  ReasonDialog,
  type ReasonTexts,
} from '../../web-backoffice/src/common/ReasonDialog';
import { REJECTION_TEXTS } from '../../web-backoffice/src/common/ReviewActions';
import { offersEnglish } from '../../web-backoffice/src/i18n/en';
import { hindi } from '../../web-backoffice/src/i18n/hi';
import { i18nProvider } from '../../web-backoffice/src/i18n/i18nProvider';
import { telugu } from '../../web-backoffice/src/i18n/te';

const advice = (defaultText: string): AdviceStep => ({
  defaultText,
  label: 'offers.review.advisedChanges',
  next: 'offers.review.next',
});

function renderDialog(props: {
  advice?: AdviceStep;
  defaultReason?: string;
  texts?: ReasonTexts;
  tooLong?: { maxLength: number; message: string };
}) {
  const onConfirm = jest.fn();
  const onCancel = jest.fn();
  render(
    <I18nContextProvider value={i18nProvider}>
      <ReasonDialog
        open
        title="Reject product"
        texts={REJECTION_TEXTS}
        onConfirm={onConfirm}
        onCancel={onCancel}
        {...props}
      />
    </I18nContextProvider>,
  );
  return { onConfirm, onCancel };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('the rejection dialog', () => {
  it('asks the reason, then the advised changes, with their defaults', () => {
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: advice('no') });
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveProperty('value', 'not clear text');
    fireEvent.click(button('Next'));
    expect(screen.getByRole('textbox', { name: 'Advised changes' })).toHaveProperty('value', 'no');
    fireEvent.change(screen.getByRole('textbox', { name: 'Advised changes' }), {
      target: { value: 'Use a sharper photo' },
    });
    fireEvent.click(button('Reject'));
    expect(onConfirm).toHaveBeenCalledWith({
      reason: 'not clear text',
      advisedChanges: 'Use a sharper photo',
    });
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancelling the reason aborts: nothing is rejected', () => {
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: advice('no') });
    fireEvent.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('cancelling the advised changes aborts too', () => {
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: advice('no') });
    fireEvent.click(button('Next'));
    fireEvent.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('an empty reason is refused with a message and goes no further', () => {
    const { onConfirm } = renderDialog({ advice: advice('no') });
    fireEvent.click(button('Next'));
    expect(screen.getByText('A reason is required to reject a coupon.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Advised changes' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), { target: { value: '   ' } });
    fireEvent.click(button('Next'));
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('without advised changes it rejects with the reason alone', () => {
    const { onConfirm } = renderDialog({});
    fireEvent.change(screen.getByRole('textbox', { name: /Reason/ }), {
      target: { value: ' Blurred artwork ' },
    });
    fireEvent.click(button('Reject'));
    expect(onConfirm).toHaveBeenCalledWith({ reason: 'Blurred artwork' });
  });

  it("a failed payout's reason: the payout texts, and the server's limit with its message", () => {
    const { onConfirm } = renderDialog({
      texts: {
        label: 'offers.payouts.reason',
        help: 'offers.payouts.reasonHelp',
        required: 'offers.payouts.reasonRequired',
        confirm: 'offers.payouts.markFailed',
      },
      tooLong: { maxLength: PAYOUT_RULES.reasonMaxLength, message: 'offers.payouts.reasonTooLong' },
    });
    expect(
      screen.getByText('The shopper reads this reason; the amount goes back to their balance.'),
    ).toBeTruthy();
    fireEvent.click(button('Mark failed'));
    expect(screen.getByText(PAYOUT.reason.required)).toBeTruthy();
    const reason = screen.getByRole('textbox', { name: /Reason/ });
    fireEvent.change(reason, { target: { value: 'x'.repeat(PAYOUT_RULES.reasonMaxLength + 1) } });
    fireEvent.click(button('Mark failed'));
    expect(screen.getByText(PAYOUT.reason.tooLong)).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(reason, { target: { value: ` ${'x'.repeat(PAYOUT_RULES.reasonMaxLength)} ` } });
    fireEvent.click(button('Mark failed'));
    expect(onConfirm).toHaveBeenCalledWith({ reason: 'x'.repeat(PAYOUT_RULES.reasonMaxLength) });
  });
});

describe('dates in the back-office', () => {
  const record = { id: 1, requestedAt: '2026-11-25T06:30:00.000Z', expiryDate: '2026-11-05' };

  function renderDate(locale: string, source: string, showTime = false) {
    const { container } = render(
      // The language as the back-office's language menu keeps it.
      <StoreContextProvider value={memoryStore({ locale })}>
        <RecordContextProvider value={record}>
          <DateField source={source} showTime={showTime} />
        </RecordContextProvider>
      </StoreContextProvider>,
    );
    return container.textContent;
  }

  it.each(['en', 'hi', 'te'])('in %s, day before month, as India writes dates', (locale) => {
    expect(renderDate(locale, 'expiryDate')).toBe('5/11/2026');
    // 06:30 UTC falls on the 25th wherever the browser is, from UTC-6 to UTC+14.
    expect(renderDate(locale, 'requestedAt', true)).toMatch(
      /^25\/11\/2026,? \d{1,2}:\d{2}:\d{2}\s(am|pm|AM|PM)$/,
    );
  });
});

type Catalogue = { [key: string]: string | Catalogue };

function keys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('the back-office texts', () => {
  const english = keys({ offers: offersEnglish.offers, resources: offersEnglish.resources } as Catalogue);

  it.each([
    ['Hindi', hindi],
    ['Telugu', telugu],
  ])('every text of its own is translated into %s', (_language, catalogue) => {
    const translated = new Set(keys(catalogue as unknown as Catalogue));
    expect(english.filter((key) => !translated.has(key))).toEqual([]);
  });
});

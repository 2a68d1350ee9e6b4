/** @jest-environment @happy-dom/jest-environment */
import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nContextProvider } from 'react-admin';
import { ReasonDialog } from '../../web-backoffice/src/coupon-reviews/ReasonDialog';
import { offersEnglish } from '../../web-backoffice/src/i18n/en';
import { hindi } from '../../web-backoffice/src/i18n/hi';
import { i18nProvider } from '../../web-backoffice/src/i18n/i18nProvider';
import { telugu } from '../../web-backoffice/src/i18n/te';

function renderDialog(props: { advice?: string; defaultReason?: string }) {
  const onConfirm = jest.fn();
  const onCancel = jest.fn();
  render(
    <I18nContextProvider value={i18nProvider}>
      <ReasonDialog open title="Reject product" onConfirm={onConfirm} onCancel={onCancel} {...props} />
    </I18nContextProvider>,
  );
  return { onConfirm, onCancel };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('the rejection dialog', () => {
  it('asks the reason, then the advised changes, with their defaults', () => {
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: 'no' });
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
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: 'no' });
    fireEvent.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('cancelling the advised changes aborts too', () => {
    const { onConfirm, onCancel } = renderDialog({ defaultReason: 'not clear text', advice: 'no' });
    fireEvent.click(button('Next'));
    fireEvent.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('an empty reason is refused with a message and goes no further', () => {
    const { onConfirm } = renderDialog({ advice: 'no' });
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

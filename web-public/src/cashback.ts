import type { CashbackRate } from './forms/rules';

/**
 * A cashback rate as the site writes it: a percentage without trailing zeros ("7%", "7.5%"), or
 * rupees as every price on the site is written ("₹150.00").
 */
export function cashbackRateText(rate: CashbackRate, money: (amount: string) => string): string {
  if ('rupees' in rate) return money(rate.rupees);
  const percent = rate.percent.includes('.') ? rate.percent.replace(/\.?0+$/, '') : rate.percent;
  return `${percent}%`;
}

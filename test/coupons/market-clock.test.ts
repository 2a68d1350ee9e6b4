import { describe, expect, it } from '@jest/globals';
import { MARKET_TIME_ZONE, marketClock } from '@offers/api/rules';

/** The reference: the time-zone database's answer for India at the instant. */
function zoneClock(at: number) {
  const found = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: MARKET_TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  );
  return {
    year: found.year,
    month: found.month,
    day: found.day,
    hour: found.hour,
    minute: found.minute,
    second: found.second,
  };
}

describe("India's wall clock", () => {
  it('agrees with the time-zone database around every midnight of a leap year and at random instants', () => {
    const instants: number[] = [];
    // Each India midnight of 2028 (a leap year), a second either side.
    for (let day = Date.UTC(2027, 11, 31, 18, 30); day < Date.UTC(2029, 0, 1); day += 86_400_000) {
      instants.push(day - 1000, day, day + 1000);
    }
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let i = 0; i < 2000; i += 1) instants.push(Math.floor(Date.UTC(1970, 0, 1) + random() * 4e12));
    for (const at of instants) {
      const { parts, day } = marketClock(at);
      const expected = zoneClock(at);
      expect({ at, ...parts }).toEqual({ at, ...expected });
      expect(day).toBe(
        `${expected.year}-${String(expected.month).padStart(2, '0')}-${String(expected.day).padStart(2, '0')}`,
      );
    }
  });
});

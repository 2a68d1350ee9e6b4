/**
 * Whether `hour` of India's day is within the quiet hours (`from-until`, 24-hour clock, across
 * midnight when `from` is later than `until`), or never with `none`: mails nobody waits for at
 * night (store alerts, earnings digests) wait for the morning.
 */
export function isQuietHour(setting: string, hour: number): boolean {
  const quiet = /^(\d+)-(\d+)$/.exec(setting);
  if (!quiet) return false;
  const [from, until] = [Number(quiet[1]), Number(quiet[2])];
  return from <= until ? hour >= from && hour < until : hour >= from || hour < until;
}

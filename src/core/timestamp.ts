const units: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * An ISO timestamp for people: how long ago, then the local date and time (`3 minutes ago (Dec 1,
 * 2026, 7:44 PM)`); `just now` under a minute. An unreadable timestamp is returned as is.
 */
export function formatTimestamp(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const unit = units.find(([, size]) => Math.abs(seconds) >= size);
  const ago = unit ? relative.format(Math.round(seconds / unit[1]), unit[0]) : 'just now';
  return `${ago} (${local.format(at)})`;
}

/** Longest digit run one length marker describes; a longer run continues as the next run. */
const maxRun = 999;

/**
 * A key whose plain (byte-wise) order is the numeric-aware order of ids: `a:2` < `a:10` < `a:11`,
 * so an index on the key lists `step2-g3` before `step10-g0`. Each run of ASCII digits, its leading
 * zeros dropped, is written after a length marker that itself sorts within the digits ('1'..'8',
 * then '9' and a three-digit length), so a shorter number sorts first and numbers keep their place
 * among the other characters. An id with leading zeros (`a:007`) appends itself after U+0001, so it
 * sorts right after its unpadded twin (`a:7`) and two different ids never share a key.
 */
export function naturalSortKey(id: string): string {
  const key = id.replace(/[0-9]+/g, (run) => lengthRuns(run.replace(/^0+(?=[0-9])/, '')));
  // A digit run starting with a zero that is not the run's only digit.
  const padded = /(^|[^0-9])0[0-9]/.test(id);
  return padded ? `${key}\u0001${id}` : key;
}

function lengthRuns(digits: string): string {
  let out = '';
  for (let at = 0; at < digits.length; at += maxRun) {
    const part = digits.slice(at, at + maxRun);
    out += (part.length <= 8 ? String(part.length) : `9${String(part.length).padStart(3, '0')}`) + part;
  }
  return out;
}

/** {@link naturalSortKey} of an optional id (a group id an episode may not log). */
export function naturalSortKeyOf(id: string | null): string | null {
  return id === null ? null : naturalSortKey(id);
}

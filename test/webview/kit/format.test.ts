import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { formatInt, formatNumber, formatPosition, numberLocale } from '../../../webview/src/kit/format';

const probe = fileURLToPath(new URL('./numbersProbe.ts', import.meta.url));

/** What the kit formats in a fresh Node whose default locale is `lang` (as a browser in that language would have). */
function formattedUnder(lang: string): { kit: string; platform: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', probe], {
    encoding: 'utf8',
    env: { ...process.env, LANG: lang, LC_ALL: lang },
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { kit: string; platform: string };
}

test('numbers read the same under a German and a French default locale: en-US grouping everywhere', () => {
  assert.equal(numberLocale, 'en-US');
  for (const [lang, platform] of [
    ['de_DE.UTF-8', '1.234.567'],
    ['fr_FR.UTF-8', '1\u202f234\u202f567'],
  ] as const) {
    const under = formattedUnder(lang);
    // The platform follows the locale (so the test really runs in it); the kit does not.
    assert.equal(under.platform, platform, `${lang} is the default locale of the child`);
    assert.equal(under.kit, '1,234,567 \u22121920.5', lang);
  }
});

test('formatInt groups integers and shows a dash for a missing value', () => {
  assert.equal(formatInt(1920), '1,920');
  assert.equal(formatInt(0), '0');
  assert.equal(formatInt(null), '—');
  assert.equal(formatInt(Number.NaN), '—');
  assert.equal(formatPosition(12_000, 'g3', 1), 'step 12,000 · group g3 · sample 1');
});

test('formatNumber: three decimals, one from 100 on, the typographic minus', () => {
  assert.equal(formatNumber(0.8123), '0.812');
  assert.equal(formatNumber(-0.25), '\u22120.250');
  assert.equal(formatNumber(123.45), '123.5');
  assert.equal(formatNumber(null), '—');
});

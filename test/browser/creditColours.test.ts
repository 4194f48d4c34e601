// The credit colours as a person sees them (docs/architecture.md §4.4), in light, dark and
// high-contrast themes: the computed colours of a zero, a no-credit and a not-identifiable cell or
// row differ, zero sits next to the background, the ramp's ends keep 3:1 contrast with it, the
// legend prints the run's fixed domain, and trace text with markup stays text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunOverview } from '../../src/protocol/dashboardPanel';
import type { EpisodeCreditView } from '../../src/protocol/episodePanel';
import type { ViewMethod } from '../../src/protocol/viewData';
import { closeDashboard, openDashboard } from './dashboard/openDashboard';
import { creditFor, episodeData, scriptedHost } from './episode/fixture';
import { chooseMethod, openEpisode } from './episode/session';
import type { HarnessTheme } from './harness/server';
import { browserSuite } from './harness/suite';

const suite = browserSuite();
const browser = suite.browser;
const themes: readonly HarnessTheme[] = ['light', 'dark', 'high-contrast'];
const xss = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'] as const;

/** What the page computes for an element: colours as [r, g, b, a] (0–255), through a 1-px canvas. */
interface Painted {
  readonly fill: number[];
  readonly fillText: string;
  readonly stroke: string;
  readonly dash: string;
  readonly background: number[];
  readonly backgroundImage: string;
  readonly border: string;
}

// In-page code is passed as text: tsx would wrap named functions in a helper the page does not have.
const probe = `(() => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data);
  };
  window.__paint = (selector) => {
    const el = document.querySelector(selector);
    if (!el) return null;
    const s = getComputedStyle(el);
    const fill = s.fill.startsWith('url(') ? [-1, -1, -1, -1] : rgba(s.fill);
    return { fill, fillText: s.fill, stroke: s.stroke, dash: s.strokeDasharray, background: rgba(s.backgroundColor),
      backgroundImage: s.backgroundImage, border: s.borderTopStyle };
  };
  window.__background = () => rgba(getComputedStyle(document.body).backgroundColor);
  window.__dialogs = 0;
})()`;

async function paint(page: Page, selector: string): Promise<Painted> {
  const painted = await page.evaluate<Painted | null>(`window.__paint(${JSON.stringify(selector)})`);
  assert.ok(painted, `${selector} is on the page`);
  return painted;
}

const background = (page: Page): Promise<number[]> => page.evaluate<number[]>('window.__background()');

/** Largest channel difference of two opaque colours. */
const distance = (a: readonly number[], b: readonly number[]): number =>
  Math.max(...[0, 1, 2].map((i) => Math.abs((a[i] ?? 0) - (b[i] ?? 0))));

/** WCAG contrast ratio of two opaque colours. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (c: readonly number[]): number => {
    const [r, g, bl] = [0, 1, 2].map((i) => {
      const v = (c[i] ?? 0) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Fails when a payload made an element or ran: no <img>, no dialog, no extra <script>. */
async function assertNoInjection(page: Page, dialogs: readonly string[]): Promise<void> {
  assert.equal(await page.locator('img').count(), 0, 'no <img> from trace text');
  assert.deepEqual(dialogs, [], 'no payload ran');
  assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline <script> from trace text');
}

/** Agents 0, 1, 2 = planner, the two payloads. Zero at (0, step 0), no credit at (1, step 1), not identifiable at (2, step 2), beyond at (0, step 3). */
function colouredOverview(overview: RunOverview): RunOverview {
  const cols = overview.meanCredit.cols.length;
  const values = [...overview.meanCredit.values];
  const set = (row: number, col: number, value: number | null): void => {
    values[row * cols + col] = value;
  };
  set(0, 0, 0);
  set(1, 1, null);
  set(2, 2, null);
  set(0, 3, 5);
  return {
    ...overview,
    meanCredit: { ...overview.meanCredit, values },
    coverage: { ...overview.coverage, notIdentifiable: 333, reason: `no counterfactuals ${xss[0]}` },
    colour: { domain: { bound: 1, reward: { min: 0, max: 1 } }, unidentifiedSteps: [overview.steps[2] ?? 2] },
  };
}

const cell = (agent: number, col: number): string =>
  `#chart-heatmap .cells rect.cell:nth-of-type(${String(agent * 60 + col + 1)})`;

suite.describe('Credit colours', () => {
  for (const theme of themes)
    test(`dashboard heatmap and legend in the ${theme} theme`, async () => {
      const o = await openDashboard(browser, {
        theme,
        shape: { agents: ['planner', ...xss] },
        overview: colouredOverview,
      });
      const { page } = o.h;
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.locator('#chart-heatmap rect.cell.unidentified').first().waitFor();
      await page.evaluate(probe);
      assert.equal(await page.locator('#chart-heatmap rect.cell').count(), 3 * 60);
      assert.equal(await page.locator('#chart-heatmap rect.cell.zero').count(), 1);
      assert.equal(await page.locator('#chart-heatmap rect.cell.empty').count(), 1);
      assert.equal(await page.locator('#chart-heatmap rect.cell.unidentified').count(), 1);
      assert.equal(await page.locator('#chart-heatmap rect.cell.beyond').count(), 1);
      const bg = await background(page);
      const zero = await paint(page, cell(0, 0));
      const none = await paint(page, cell(1, 1));
      const unknown = await paint(page, cell(2, 2));
      const value = await paint(page, cell(2, 40)); // the verifier after its collapse: about −0.25
      // Pairwise distinct: a solid neutral, a transparent fill with a dashed outline, a hatch.
      assert.equal(zero.fill[3], 255, 'zero is solid');
      assert.ok(
        distance(zero.fill, bg) > 0 && distance(zero.fill, bg) <= 40,
        `zero ${String(zero.fill)} is near ${String(bg)}`,
      );
      assert.equal(none.fill[3], 0, 'no credit has no fill');
      assert.match(none.dash, /2/, 'no credit has a dashed outline');
      assert.match(unknown.fillText, /^url\(.*credit-lens-unidentified/, 'not identifiable is hatched');
      assert.notDeepEqual(zero.fill, none.fill);
      assert.notEqual(zero.fillText, unknown.fillText);
      assert.notEqual(none.fillText, unknown.fillText);
      assert.ok(distance(value.fill, zero.fill) > 20, 'a value is coloured');
      if (theme === 'high-contrast') assert.notEqual(zero.stroke, 'none', 'an outline where the fill vanishes');
      const hatch = await paint(page, '#chart-heatmap pattern.hatch line');
      assert.ok(contrast(rgbOf(hatch.stroke), bg) >= 3, `the hatch lines (${hatch.stroke}) show`);
      assert.equal(
        await page.locator(cell(2, 2)).locator('title').textContent(),
        `${xss[1]}, step 2: not identifiable (no counterfactuals ${xss[0]})`,
      );
      assert.match((await page.locator(cell(0, 3)).locator('title').textContent()) ?? '', /beyond the scale's \+1\.00/);
      // The legend: the fixed domain's numbers, the four states, where the domain comes from.
      const legend = page.locator('#figure-heatmap .credit-legend');
      assert.deepEqual(await legend.locator('.ramp-end').allTextContents(), ['−1.00', '+1.00']);
      assert.deepEqual(await legend.locator('.credit-states li').allTextContents(), [
        'zero credit',
        'no credit',
        '?not identifiable',
        '▲beyond ±1.00',
      ]);
      assert.match(
        await legend.locator('.credit-domain').innerText(),
        /^Scale fixed at ±1\.00 for every method and episode: the run's reward span, 0 to 1\.$/,
      );
      const stops = page.locator('#figure-heatmap .ramp-stop');
      const ends = [
        await paint(page, '#figure-heatmap .ramp-stop:first-child'),
        await paint(page, '#figure-heatmap .ramp-stop:last-child'),
      ];
      assert.equal(await stops.count(), 11);
      for (const end of ends)
        assert.ok(contrast(end.background, bg) >= 3, `end ${String(end.background)} has 3:1 on ${String(bg)}`);
      const middle = await paint(page, '#figure-heatmap .ramp-stop:nth-child(6)');
      assert.deepEqual(middle.background, zero.fill, 'the legend centre is the zero cell');
      assert.deepEqual(await page.locator('#chart-heatmap .row-label title').allTextContents(), ['planner', ...xss]);
      await assertNoInjection(page, dialogs);
      await o.h.screenshot(`credit-colours-dashboard-${theme}`);
      await closeDashboard(o);
    });

  for (const theme of themes)
    test(`episode rows and legend in the ${theme} theme`, async () => {
      const count = 20;
      const credit = (method: ViewMethod): EpisodeCreditView => {
        const base = creditFor('loo', count);
        if (method === 'shapley')
          return { ...base, method, status: 'not-identifiable', reason: `no coalitions ${xss[0]}`, messageCredit: [] };
        const messageCredit = base.messageCredit.map((v, seq) =>
          seq === 0 ? 0 : seq === 1 ? null : seq === 2 ? 4 : v,
        );
        return { ...base, method, messageCredit };
      };
      const s = await openEpisode(browser, {
        host: scriptedHost({ count, credit }),
        data: episodeData(count, { creditDomain: { bound: 2, reward: { min: -1, max: 1 } } }),
        theme,
      });
      const { page } = s.h;
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await chooseMethod(s.h, 'loo');
      await page.locator('.msg[data-seq="0"][data-credit-state="zero"]').waitFor();
      await page.evaluate(probe);
      const bg = await background(page);
      const zero = await paint(page, '.msg[data-seq="0"] .msg-strip');
      const none = await paint(page, '.msg[data-seq="1"] .msg-strip');
      assert.equal(zero.background[3], 255, 'zero is solid');
      assert.ok(
        distance(zero.background, bg) > 0 && distance(zero.background, bg) <= 40,
        'zero is near the background',
      );
      assert.equal(none.background[3], 0, 'no credit has no fill');
      assert.equal(none.border, 'dashed');
      assert.match((await page.locator('.msg[data-seq="1"] .msg-credit').getAttribute('title')) ?? '', /^No credit/);
      assert.equal(await page.locator('.msg[data-seq="2"] .msg-credit-value').textContent(), '+4.000▲');
      const legend = page.locator('.legend');
      assert.deepEqual(await legend.locator('.ramp-end').allTextContents(), ['−2.00', '+2.00'], "the run's domain");
      assert.match((await legend.locator('.legend-kind').textContent()) ?? '', /^Each message shows its agent's/);
      await chooseMethod(s.h, 'shapley');
      await page.locator('.msg[data-seq="0"][data-credit-state="unidentified"]').waitFor();
      const unknown = await paint(page, '.msg[data-seq="0"] .msg-strip');
      assert.match(unknown.backgroundImage, /repeating-linear-gradient/, 'not identifiable is hatched');
      assert.notDeepEqual(
        [zero.background, zero.border, zero.backgroundImage],
        [none.background, none.border, none.backgroundImage],
      );
      assert.notDeepEqual(
        [unknown.background, unknown.border, unknown.backgroundImage],
        [none.background, none.border, none.backgroundImage],
      );
      assert.notDeepEqual([unknown.background, unknown.backgroundImage], [zero.background, zero.backgroundImage]);
      assert.equal(await page.locator('.msg[data-seq="0"] .msg-credit-value').textContent(), '?');
      assert.equal(
        await page.locator('.msg[data-seq="0"] .msg-credit').getAttribute('title'),
        `Not identifiable under Shapley (exact): no coalitions ${xss[0]}`,
      );
      assert.equal(
        await legend.locator('.legend-kind').textContent(),
        `This episode is not identifiable under the method: no coalitions ${xss[0]}.`,
      );
      await assertNoInjection(page, dialogs);
      await s.h.screenshot(`credit-colours-episode-${theme}`);
      await s.close();
    });
});

/** `rgb(r, g, b)` / `rgba(…)` as numbers (computed stroke colours of the hatch). */
function rgbOf(css: string): number[] {
  return (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
}

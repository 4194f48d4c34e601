// The checks of the e2e steps on real data (steps/e2ereal.ts): what the Run Dashboard and the
// Episode view show, against the CLI's figures and the index read with this file's own SQL.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { openDatabase } from '../../../src/store/database';
import { formatCredit, formatInt, formatInterval } from '../../../webview/src/kit/format';

/** `text` as a literal in a RegExp. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One agent of `credit-lens summary --json`: the stored credit, as the CLI reports it. */
export interface CliAgentCredit {
  readonly agent: string;
  readonly episodes: number;
  readonly mean: number;
  readonly ci: readonly [number, number];
}

/** The stored per-agent credit of the only run of `folder`'s index under `method`, read by the CLI (`summary --json`). */
export function cliCredit(repo: string, folder: string, method: string): CliAgentCredit[] {
  const out = spawnSync(
    process.execPath,
    [join(repo, 'dist/cli.js'), 'summary', folder, '--method', method, '--json'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  assert.equal(out.status, 0, `credit-lens summary failed: ${out.stderr}`);
  const parsed = JSON.parse(out.stdout) as { runs: { agents: CliAgentCredit[] }[] };
  assert.equal(parsed.runs.length, 1, `one run in ${folder}`);
  return parsed.runs[0]?.agents ?? [];
}

/** An episode and one agent's stored credit in it. */
export interface CreditRow {
  readonly externalId: string;
  readonly value: number;
}

/**
 * The first `limit` episodes of `run` by `agent`'s agent-level credit under `method` (its parameter
 * set computed last; ties by episode), read from the index with SQL of this test's own: the order
 * the dashboard's table must show when sorted by that agent's column.
 */
export function indexCreditOrder(
  indexPath: string,
  q: { run: string; method: string; agent: string; descending: boolean; limit: number },
): CreditRow[] {
  const db = openDatabase(indexPath, { readonly: true });
  try {
    const dir = q.descending ? 'DESC' : 'ASC';
    return db
      .prepare<CreditRow>(
        `WITH latest AS (
           SELECT c.params_hash FROM credit c JOIN run r ON r.run_id = c.run_id
           WHERE r.name = :run AND c.method = :method ORDER BY c.computed_at DESC, c.credit_id DESC LIMIT 1)
         SELECT e.external_id AS externalId, c.value AS value
         FROM credit c JOIN episode e ON e.episode_id = c.episode_id JOIN run r ON r.run_id = e.run_id
           JOIN agent a ON a.agent_id = c.agent_id
         WHERE r.name = :run AND a.name = :agent AND c.method = :method AND c.message_seq IS NULL
           AND c.value IS NOT NULL AND c.params_hash = (SELECT params_hash FROM latest)
         ORDER BY c.value ${dir}, c.episode_id ${dir} LIMIT :limit`,
      )
      .all({ run: q.run, method: q.method, agent: q.agent, limit: q.limit });
  } finally {
    db.close();
  }
}

/** Chooses `method` in the dashboard's method dropdown and waits for the agent summary under `label`. */
export async function chooseDashboardMethod(view: FrameLocator, method: string, label: string): Promise<void> {
  await view.locator('#method-select').click();
  await view.locator(`#method-select vscode-option[value="${method}"]`).click();
  await view.locator('.agent-summary-title', { hasText: new RegExp(`^Agents under ${escapeRegExp(label)}$`) }).waitFor({
    timeout: 30_000,
  });
}

const cells = (view: FrameLocator, column: number): Promise<string[]> =>
  view.locator(`.agent-table tbody tr td:nth-child(${String(column)})`).allInnerTexts();

/**
 * The step-less dashboard's per-agent table and distributions under a method with credit: one row
 * per agent of `roster` (in roster order) whose episodes, mean and 95% interval are the CLI's
 * figures for the same index, the step-less caption and no coverage caption (every episode has
 * credit), no per-step charts, and one histogram per agent whose episode count is the CLI's.
 */
export async function steplessCreditTable(
  view: FrameLocator,
  o: { roster: readonly string[]; cli: readonly CliAgentCredit[]; methodLabel: string },
): Promise<void> {
  const byAgent = new Map(o.cli.map((a) => [a.agent, a]));
  const rows = view.locator('.agent-table tbody tr');
  await rows.first().waitFor({ timeout: 30_000 });
  assert.deepEqual(await cells(view, 1), [...o.roster], 'one row per agent, in roster order');
  assert.deepEqual(
    await cells(view, 2),
    o.roster.map((a) => formatInt(byAgent.get(a)?.episodes ?? 0)),
  );
  assert.deepEqual(
    await cells(view, 3),
    o.roster.map((a) => formatCredit(byAgent.get(a)?.mean ?? null)),
    'mean credit = the CLI',
  );
  assert.deepEqual(
    await cells(view, 4),
    o.roster.map((a) => {
      const ci = byAgent.get(a)?.ci;
      return ci ? formatInterval(ci[0], ci[1]) : '—';
    }),
    '95% interval = the CLI',
  );
  const summary = await view.locator('.agent-summary').innerText();
  assert.match(summary, /No episode of this run logs a training step: this summary is the whole run\./);
  assert.doesNotMatch(summary, new RegExp(`${escapeRegExp(o.methodLabel)}: \\d+ of`), 'no coverage caption: all drawn');
  assert.equal(await view.locator('.agent-credit-state').count(), 0, 'no "credit missing" notice');
  assert.equal(await view.locator('section.charts').isVisible(), false, 'no per-step charts without steps');
  // The distributions: one histogram per agent, each over the CLI's episode count.
  const figures = view.locator('.agent-histogram');
  assert.equal(await figures.count(), o.roster.length, 'one histogram per agent');
  assert.deepEqual(await view.locator('.agent-histogram figcaption').allInnerTexts(), [...o.roster]);
  const labels = await view
    .locator('.agent-histogram svg')
    .evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label') ?? ''));
  o.roster.forEach((agent, i) => {
    const n = byAgent.get(agent)?.episodes ?? 0;
    assert.ok(
      labels[i]?.startsWith(`${agent}: ${o.methodLabel} credit of ${formatInt(n)} episode${n === 1 ? '' : 's'} from `),
      `histogram of ${agent}: ${labels[i] ?? ''}`,
    );
  });
  const bars = await view
    .locator('.agent-histogram')
    .evaluateAll((fs) => fs.map((f) => f.querySelectorAll('.histogram-bar').length));
  assert.ok(
    bars.every((b, i) => (byAgent.get(o.roster[i] ?? '')?.episodes ?? 0) === 0 || b > 0),
    `a bar for every agent with credit: ${JSON.stringify(bars)}`,
  );
}

/**
 * The step-less dashboard under a method the data cannot answer: "not identifiable" in every
 * credit cell instead of a number, the coverage caption (0 of `episodes`), the notice with the
 * reason (`reason`) and what would answer it, and no histogram.
 */
export async function steplessNotIdentifiable(
  view: FrameLocator,
  o: { roster: readonly string[]; methodLabel: string; episodes: number; reason: RegExp },
): Promise<void> {
  const state = view.locator('.agent-credit-state.status-not-identifiable');
  await state.waitFor({ timeout: 30_000 });
  const lines = await state.locator('p').allInnerTexts();
  assert.equal(lines[0], `${o.methodLabel} credit is not identifiable for this run: no chart is drawn from it.`);
  assert.match(lines[1] ?? '', new RegExp(`^${formatInt(o.episodes)} not identifiable: `));
  assert.match(lines[1] ?? '', o.reason);
  assert.match(lines[2] ?? '', /^What would answer it: /);
  const noValue = o.roster.map(() => 'not identifiable');
  assert.deepEqual(await cells(view, 3), noValue, 'no mean credit is drawn');
  assert.deepEqual(await cells(view, 5), noValue, 'no credit share is drawn');
  assert.match(
    await view.locator('.agent-summary').innerText(),
    new RegExp(`${escapeRegExp(o.methodLabel)}: 0 of ${formatInt(o.episodes)} episodes`),
  );
  assert.equal(await view.locator('.histogram-none').innerText(), `No ${o.methodLabel} credit to draw per agent.`);
  assert.equal(await view.locator('.agent-histogram').count(), 0);
}

/** The external ids and `column`'s cells of the table's first `n` loaded rows, in row order. */
async function tableRows(view: FrameLocator, column: string, n: number): Promise<{ id: string; credit: string }[]> {
  const rows = await view.locator('#episode-grid .row:not(.header):not(.loading)').evaluateAll(
    (elements, col) =>
      elements
        .map((e) => ({
          index: Number(e.getAttribute('aria-rowindex')),
          id: e.querySelector('.col-id')?.textContent ?? '',
          credit: e.querySelector(`.col-${col}`)?.textContent ?? '',
        }))
        .sort((a, b) => a.index - b.index),
    column,
  );
  return rows.slice(0, n).map(({ id, credit }) => ({ id, credit }));
}

/**
 * Sorts the dashboard's episode table by `agent`'s credit column (one click: ascending, most
 * negative first; two: descending) and asserts its first rows are `expected` (the index's order)
 * with the agent's credit in its column.
 */
export async function sortByAgentCredit(
  view: FrameLocator,
  o: { agent: string; descending: boolean; expected: readonly CreditRow[] },
): Promise<void> {
  assert.ok(o.expected.length > 0, `credit of ${o.agent} in the index`);
  const button = view.locator('#episode-grid .sort-button', {
    hasText: new RegExp(`^${escapeRegExp(o.agent)}( ▲| ▼)?$`),
  });
  await button.waitFor({ timeout: 30_000 });
  const column = ((await button.getAttribute('id')) ?? '').replace(/^sort-/, '');
  assert.match(column, /^agent-\d+$/, 'an agent credit column');
  const header = view.locator(`#episode-grid .row.header .col-${column}`);
  const sorted = o.descending ? 'descending' : 'ascending';
  for (let clicks = 0; clicks < 2 && (await header.getAttribute('aria-sort')) !== sorted; clicks++)
    await button.click();
  assert.equal(await header.getAttribute('aria-sort'), sorted);
  const want = o.expected.map((r) => ({ id: r.externalId, credit: formatCredit(r.value) }));
  const deadline = Date.now() + 30_000;
  let shown = await tableRows(view, column, want.length);
  while (JSON.stringify(shown) !== JSON.stringify(want) && Date.now() < deadline) {
    await view.locator('body').page().waitForTimeout(250);
    shown = await tableRows(view, column, want.length);
  }
  assert.deepEqual(shown, want, `the table sorted by ${o.agent}'s credit (${sorted}) = the index`);
  await view.locator('#episode-grid').scrollIntoViewIfNeeded();
}

/**
 * The Episode view's task section shows `prompt` (the fixture's own words, whole: these prompts are
 * short) and ground truth containing `truth`; then saves `name`.
 */
export async function episodeShowsPrompt(
  view: FrameLocator,
  screenshot: (name: string) => Promise<void>,
  o: { prompt: string; truth: string; name: string },
): Promise<void> {
  const prompt = view.locator('.task-prompt .prompt-text');
  await prompt.waitFor({ timeout: 30_000 });
  assert.equal(((await prompt.textContent()) ?? '').trim(), o.prompt.trim());
  assert.ok(((await view.locator('.task-truth').textContent()) ?? '').includes(o.truth), 'the ground truth');
  assert.ok((await view.locator('.msg.is-loaded').count()) > 0, 'the messages under the task');
  await screenshot(o.name);
}

// Issue 16's "Done when" on real third-party data, as steps of test/e2e/extension.e2e.ts: a run
// folder (tau-bench trajectories, Who&When failures: step-less evaluation data, copied into the
// workspace by scripts/e2e/run.mjs) indexed from the Explorer, credited from the palette, then the
// step-less Run Dashboard and the Episode view asserted against the CLI's figures and the index
// (text content and counts of each screenshot, not only the screenshot).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { agentSummaryStep } from './dash';
import {
  chooseDashboardMethod,
  cliCredit,
  episodeShowsPrompt,
  escapeRegExp,
  indexCreditOrder,
  sortByAgentCredit,
  steplessCreditTable,
  steplessNotIdentifiable,
} from './realDataChecks';

/** What the steps take from extension.e2e.ts. */
export interface Workbench {
  readonly page: Page;
  /** The repository (its dist/cli.js gives the CLI's figures). */
  readonly repo: string;
  /** Runs a palette command by its exact title. */
  readonly runCommand: (title: string) => Promise<void>;
  /** Runs `body`, then saves `<name>.png` (`<name>.failed.png` when it throws). */
  readonly step: (name: string, body: () => Promise<void>) => Promise<void>;
  /** Saves `<name>.png` of the page. */
  readonly screenshot: (name: string) => Promise<void>;
  /** The webview of the active editor. */
  readonly activeWebview: () => FrameLocator;
  /** Opens the Run Dashboard of the current run folder alone, on a run whose title holds `title`. */
  readonly openDashboard: (title: string) => Promise<FrameLocator>;
  /** Opens an episode of the current run folder by "Open Episode by Id…". */
  readonly openEpisodeById: (id: string) => Promise<void>;
}

/** A real run folder of the workspace, and what the tests expect of it. */
export interface RealRun {
  /** The folder's name in the workspace, also its run's name. */
  readonly name: string;
  /** Its absolute path. */
  readonly folder: string;
  /** The notification after indexing it. */
  readonly indexed: string;
  readonly episodes: number;
  /** The run's agents, in roster order. */
  readonly roster: readonly string[];
  /** Why leave-one-out is not identifiable on it (the built-in checker cannot answer). */
  readonly looReason: RegExp;
  /** Whether the run is audited before its dashboard opens. */
  readonly audit: boolean;
  /** The agent-credit column the table is sorted by, and the rows compared with the index. */
  readonly sortBy: { readonly agent: string; readonly descending: boolean; readonly rows: number };
  /** An episode, its whole prompt and (part of) its ground truth, read from the fixture file. */
  readonly episode: { readonly id: string; readonly prompt: string; readonly truth: string };
}

/** The real runs scripts/e2e/run.mjs copies into `workspace`: tau-bench, then Who&When. */
export function realRuns(workspace: string): [RealRun, RealRun] {
  return [tauBenchRun(workspace), whoAndWhenRun(workspace)];
}

/** tau-bench trajectories (airline): 3 episodes (one malformed row, one duplicate skipped), no steps. */
function tauBenchRun(workspace: string): RealRun {
  const folder = join(workspace, 'tau-bench');
  const [first] = JSON.parse(readFileSync(join(folder, 'trajectories.json'), 'utf8')) as {
    info: { task: { instruction: string } };
  }[];
  return {
    name: 'tau-bench',
    folder,
    indexed: 'Indexed 1 file: 3 episodes, 16 messages, 4 agents; 2 lines with errors',
    episodes: 3,
    roster: ['assistant', 'user', 'system', 'tools'],
    // Its reward compares tool actions and the database with the task, not a final answer.
    looReason: /the built-in final-answer checker cannot score this episode/,
    audit: true,
    sortBy: { agent: 'assistant', descending: false, rows: 3 },
    episode: { id: 'trajectories:1:0', prompt: first?.info.task.instruction ?? '', truth: 'cancel_reservation' },
  };
}

/** Who&When Hand-Crafted: 8 failed Magentic-One episodes (every reward 0), no steps. */
function whoAndWhenRun(workspace: string): RealRun {
  const folder = join(workspace, 'who-and-when');
  const first = JSON.parse(readFileSync(join(folder, 'Hand-Crafted', '1.json'), 'utf8')) as {
    question: string;
    ground_truth: string;
  };
  return {
    name: 'who-and-when',
    folder,
    indexed: 'Indexed 8 files: 8 episodes, 407 messages, 5 agents',
    episodes: 8,
    roster: ['human', 'Orchestrator', 'WebSurfer', 'Assistant', 'FileSurfer'],
    looReason: /all 8 sampled episodes log reward 0/,
    audit: false,
    // Every shared credit is 0: descending, the ties come last episode first (not the table's default order).
    sortBy: { agent: 'WebSurfer', descending: true, rows: 5 },
    episode: { id: 'Hand-Crafted/1', prompt: first.question, truth: first.ground_truth },
  };
}

/** The index the extension writes inside a run folder. */
export const indexOf = (folder: string): string => join(folder, '.credit-lens', 'index.sqlite');

/**
 * The text of the notification matching `text` (clear notifications first: an old one must not
 * match). Read from its toast, else from the notification center: the workbench sometimes files a
 * notification there without a toast (seen for the audit's, right after its progress notification).
 */
async function notificationText(w: Workbench, text: RegExp): Promise<string> {
  const item = w.page.locator('.notification-list-item', { hasText: text }).first();
  let opened = false;
  try {
    await item.waitFor({ timeout: 15_000 });
  } catch {
    await w.runCommand('Notifications: Show Notifications');
    opened = true;
    await item.waitFor({ timeout: 45_000 });
  }
  const message = (await item.locator('.notification-list-item-message').innerText()).trim();
  if (opened) await w.runCommand('Notifications: Hide Notifications');
  return message;
}

/**
 * Indexes the workspace folder `name` as a user does: Explorer, right-click the folder, "Index Run
 * Folder"; returns the result notification's text.
 */
export async function indexFromExplorer(w: Workbench, name: string): Promise<string> {
  const { page } = w;
  await w.runCommand('Notifications: Clear All Notifications');
  await w.runCommand('View: Show Explorer');
  // `has` is relative to the row: the label inside it.
  const label = page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) });
  const row = page.locator('.explorer-folders-view .monaco-list-row', { has: label }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-item', { hasText: /^Index Run Folder$/ }).first();
  await item.waitFor({ timeout: 10_000 });
  // The menu ignores a click right after it opened (the right-click's own mouse-up): hover the
  // item, then choose it with the keyboard.
  await item.hover();
  await page.keyboard.press('Enter');
  return notificationText(w, /Indexed \d|Indexing cancelled/);
}

/** The placeholders of the prompts "Recompute Credit…" shows, in order (recomputeCreditCommand.ts). */
const prompts = {
  method: 'Choose the credit method',
  evaluator: 'Choose the evaluator for counterfactual values',
  budget: 'empty for exact leave-one-out',
  steps: 'empty for every step',
} as const;

/**
 * Types `text` (when given) into the quick input showing `placeholder` and accepts it; in a pick,
 * only once the filtered list's active row holds `text` (Enter before that takes the old row).
 */
async function answer(page: Page, placeholder: string, text?: string): Promise<void> {
  const input = page.locator(`.quick-input-widget input[placeholder="${placeholder}"]`);
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  if (text !== undefined) {
    await input.fill(text);
    const list = page.locator('.quick-input-widget .quick-input-list');
    if (await list.isVisible())
      await list.locator('.monaco-list-row.focused', { hasText: text }).first().waitFor({ timeout: 10_000 });
  }
  await input.press('Enter');
}

/**
 * "Credit Lens: Recompute Credit…" on the current run folder under method `label`, with the
 * built-in evaluator, no budget and every step; returns the result notification's text.
 */
export async function recomputeFromPalette(w: Workbench, label: 'Shared' | 'LOO'): Promise<string> {
  const { page } = w;
  await w.runCommand('Notifications: Clear All Notifications');
  await w.runCommand('Credit Lens: Recompute Credit…');
  await answer(page, prompts.method, label);
  if (label === 'LOO') {
    // The evaluator is asked only when a command or a replay is configured: take the built-in one.
    const asked = page.locator(
      `.quick-input-widget input[placeholder="${prompts.evaluator}"], .quick-input-widget input[placeholder="${prompts.budget}"]`,
    );
    await asked.first().waitFor({ state: 'visible', timeout: 15_000 });
    if ((await asked.first().getAttribute('placeholder')) === prompts.evaluator)
      await answer(page, prompts.evaluator, 'Built-in');
    await answer(page, prompts.budget);
  }
  await answer(page, prompts.steps);
  // Not the progress notification ("LOO credit of tau-bench"): the result reads "LOO credit: …".
  return notificationText(w, new RegExp(`${label} credit( \\(cancelled\\))?: `));
}

/**
 * Indexes `run` from the Explorer, recomputes LOO (not identifiable: the notification says so, with
 * no number) and Shared (every episode) from the palette, and audits it when `run.audit`.
 */
export async function indexAndCredit(w: Workbench, run: RealRun): Promise<void> {
  assert.equal(await indexFromExplorer(w, run.name), run.indexed);
  assert.equal(existsSync(indexOf(run.folder)), true, 'the index is in the run folder');
  const episodes = `${String(run.episodes)} episodes`;
  assert.match(
    await recomputeFromPalette(w, 'LOO'),
    new RegExp(`^LOO credit: 0 episodes; ${episodes} not identifiable \\(see the log for why`),
  );
  assert.match(await recomputeFromPalette(w, 'Shared'), new RegExp(`^Shared credit: ${episodes}(;|$)`));
  if (!run.audit) return;
  await w.runCommand('Credit Lens: Run Audit');
  assert.match(await notificationText(w, /Audit of 1 run/), /^Audit of 1 run: no flags; \d+ verdicts? not reached/);
}

/**
 * The step-less dashboard of `run`: under LOO the honest state (not identifiable, why, no number);
 * under Shared the per-agent table = the CLI, one histogram per agent, the audit state; then the
 * episode table sorted by one agent's credit = the index. One screenshot per state.
 */
export async function steplessDashboard(w: Workbench, run: RealRun): Promise<void> {
  const webview = await w.openDashboard(run.name);
  await w.step(`${run.name}-loo-not-identifiable`, async () => {
    await chooseDashboardMethod(webview, 'loo', 'Leave-one-out');
    await steplessNotIdentifiable(webview, {
      roster: run.roster,
      methodLabel: 'Leave-one-out',
      episodes: run.episodes,
      reason: run.looReason,
    });
  });
  await w.step(`${run.name}-shared`, async () => {
    await chooseDashboardMethod(webview, 'shared', 'Shared reward');
    const cli = cliCredit(w.repo, run.folder, 'shared');
    await steplessCreditTable(webview, { roster: run.roster, cli, methodLabel: 'Shared reward' });
    await agentSummaryStep({
      webview: () => webview,
      screenshot: w.screenshot,
      agents: run.roster,
      audited: run.audit,
      stepped: false,
      name: `${run.name}-agents`,
    });
    if (run.audit) await unreachableVerdicts(webview, run.roster);
  });
  await w.step(`${run.name}-sorted-by-${run.sortBy.agent}`, async () => {
    const { agent, descending, rows } = run.sortBy;
    const expected = indexCreditOrder(indexOf(run.folder), {
      run: run.name,
      method: 'shared',
      agent,
      descending,
      limit: rows,
    });
    await sortByAgentCredit(webview, { agent, descending, expected });
  });
}

/** After an audit of step-less data: how many verdicts could not be reached, each listed with its reason. */
async function unreachableVerdicts(webview: FrameLocator, roster: readonly string[]): Promise<void> {
  const caption = await webview.locator('.agent-audit > p').innerText();
  const count = Number(/; (\d+) verdicts? could not be reached\.$/.exec(caption)?.[1]);
  await webview.locator('details.unreachable summary').click();
  const verdicts = await webview.locator('.unreachable-list li').allInnerTexts();
  assert.equal(verdicts.length, count, `${caption}: ${JSON.stringify(verdicts)}`);
  for (const agent of roster)
    assert.ok(
      verdicts.some((v) => v.includes(` for ${agent}: `)),
      `${agent}'s verdicts not reached: ${JSON.stringify(verdicts)}`,
    );
  await webview.locator('details.unreachable summary').click();
}

/** The Episode view of `run.episode` shows its prompt and ground truth above the messages. */
export async function episodePrompt(w: Workbench, run: RealRun): Promise<void> {
  await w.step(`${run.name}-episode`, async () => {
    await w.runCommand('View: Close All Editors');
    await w.openEpisodeById(run.episode.id);
    await episodeShowsPrompt(w.activeWebview(), w.screenshot, {
      prompt: run.episode.prompt,
      truth: run.episode.truth,
      name: `${run.name}-prompt`,
    });
  });
}

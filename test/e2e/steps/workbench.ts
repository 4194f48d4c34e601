// The code-server workbench the e2e suite drives (test/e2e/extension.e2e.ts, docs/e2e.md): the
// E2E_* variables scripts/e2e/run.mjs passes, the Chromium page, and the helpers every step uses
// (palette commands, screenshots, the active webview, opening a dashboard or an episode).
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../chromium';
import type { Workbench } from './e2ereal';
import { escapeRegExp } from './realDataChecks';

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run the suite with \`npm run test:e2e\` (scripts/e2e/run.mjs)`);
  return value;
}

const extensionId = 'credit-lens.credit-lens';

/** Agent and stored credit of one loaded message row of the Episode view. */
export interface MessageCredit {
  readonly agent: string;
  readonly credit: number;
}

/**
 * One code-server session in headless Chromium. Its helpers are arrow properties, so a step can be
 * handed one alone (`runCommand: cs.runCommand`). `page` is set by {@link launch}.
 */
export class CodeServer implements Workbench {
  readonly url = env('E2E_URL');
  readonly workspace = env('E2E_WORKSPACE');
  readonly userData = env('E2E_USER_DATA');
  readonly results = env('E2E_RESULTS');
  /** The SQLite driver the extension must open (run.mjs: better-sqlite3 where its addon matches the runtime, else node:sqlite). */
  readonly expectedDriver = process.env.E2E_EXPECT_SQLITE_DRIVER;
  /** The demo's pipeline run folder. */
  readonly runDir = join(this.workspace, 'demo-run', 'planner-solver-verifier');
  /** The repository (dist/cli.js for the CLI's figures); the tests run from it (scripts/e2e/run.mjs). */
  readonly repo = process.cwd();
  page!: Page;
  private context: BrowserContext | undefined;
  private profile: string | undefined;

  /**
   * Starts Chromium on a fresh profile. A launch that hangs is tried once more on another profile:
   * CI saw Chromium start and never answer on its pipe for 30 s (once in many runs, every test then
   * cancelled), which says nothing about the extension.
   */
  async launch(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.profile = mkdtempSync(join(tmpdir(), 'credit-lens-chromium-'));
      try {
        this.context = await chromium.launchPersistentContext(this.profile, {
          executablePath: chromiumPath,
          headless: true,
          viewport: { width: 1400, height: 900 },
          timeout: 45_000,
          args: [...chromiumArgs],
        });
        break;
      } catch (error) {
        rmSync(this.profile, { recursive: true, force: true });
        if (attempt >= 2) throw error;
        console.log(`Chromium did not start (${error instanceof Error ? error.name : 'error'}); trying again once`);
      }
    }
    this.page = this.context.pages()[0] ?? (await this.context.newPage());
  }

  /** Closes Chromium; never throws over a failed launch's reason. */
  async close(): Promise<void> {
    await this.context?.close().catch(() => undefined);
    if (this.profile) rmSync(this.profile, { recursive: true, force: true });
  }

  readonly screenshot = async (name: string): Promise<void> => {
    mkdirSync(this.results, { recursive: true });
    await this.page.screenshot({ path: join(this.results, `${name}.png`) }).catch(() => undefined);
  };

  /** Runs `body`, then saves `<name>.png` (also `<name>.failed.png` when it throws). */
  readonly step = async (name: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
      await this.page.waitForTimeout(300);
      await this.screenshot(name);
    } catch (error) {
      await this.screenshot(`${name}.failed`);
      throw error;
    }
  };

  /**
   * Reloads the window as a user does ("Developer: Reload Window"): the workbench's shutdown saves
   * its editors and the webviews' state before it navigates. A browser reload (`page.reload()`)
   * does not wait for that save, and VS Code 1.139 then brought back no editor at all.
   */
  readonly reloadWindow = async (): Promise<void> => {
    const page = this.page;
    // Awaited together: a failed command must not leave the navigation wait rejecting unobserved.
    await Promise.all([
      page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 60_000 }),
      this.runCommand('Developer: Reload Window', 60_000, { exact: true }),
    ]);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  };

  /**
   * Runs a command from the palette. Extension commands appear only once the extension host has
   * scanned extensions, so wait for a row that holds the title instead of pressing Enter on a fuzzy
   * match; `exact`: the row whose label is the title (not "… Reload Window With Extensions Disabled").
   */
  readonly runCommand = async (
    title: string,
    timeoutMs = 60_000,
    options: { readonly exact?: boolean } = {},
  ): Promise<void> => {
    const page = this.page;
    const deadline = Date.now() + timeoutMs;
    // A key press can land in a webview that has focus and never open the palette: then try the
    // other key binding, and retry until the deadline.
    for (let attempt = 0; ; attempt++) {
      try {
        await page.keyboard.press(attempt % 2 === 0 ? 'F1' : 'Control+Shift+P');
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible', timeout: 5000 });
        await input.fill(`>${title}`, { timeout: 5000 });
        const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: title });
        const exactLabel = { has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) };
        const row = (options.exact ? rows.filter(exactLabel) : rows).first();
        await row.waitFor({ timeout: 3000 });
        await row.click();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await page.keyboard.press('Escape');
        await page.waitForTimeout(500);
      }
    }
  };

  /** The text of every `exthost*\/remoteexthost.log` under the user-data dir, plus our own log channel. */
  readonly exthostLogs = (): { host: string; channel: string } => {
    let host = '';
    let channel = '';
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name === 'remoteexthost.log') host += readFileSync(path, 'utf8');
        else if (path.includes(extensionId) && name.endsWith('.log')) channel += readFileSync(path, 'utf8');
      }
    };
    walk(join(this.userData, 'logs'));
    return { host, channel };
  };

  /** The episode count of the status-bar item `Credit Lens: 1,920 episodes`. */
  readonly statusBarEpisodes = async (): Promise<number> => {
    const item = this.page.locator('.statusbar-item', { hasText: /Credit Lens: [\d,]+ episodes/ }).first();
    await item.waitFor({ timeout: 30_000 });
    const text = (await item.textContent()) ?? '';
    const match = /Credit Lens: ([\d,]+) episodes/.exec(text);
    assert.ok(match?.[1], `status bar text: ${text}`);
    return Number(match[1].replace(/,/g, ''));
  };

  /** The webview of the active editor (close other editors first: each open webview has its own frame). */
  readonly activeWebview = (): FrameLocator =>
    this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');

  /** The Runs view's pane. */
  readonly runsView = (): Locator =>
    this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: /^Runs/ }) }).first();

  /** Switches the colour theme through the palette (`Preferences: Color Theme`), e.g. `Light Modern`. */
  readonly setTheme = async (name: string): Promise<void> => {
    await this.runCommand('Preferences: Color Theme');
    await this.page.locator('.quick-input-widget input').fill(name);
    await clickQuickPickRow(
      this.page,
      this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first(),
    );
    await this.page
      .locator(`.monaco-workbench.${name.startsWith('Light') ? 'vs' : 'vs-dark'}`)
      .waitFor({ timeout: 15_000 });
  };

  /** Agent and stored credit of every loaded message row of the Episode view. */
  readonly messageCredits = async (): Promise<MessageCredit[]> => {
    const rows = this.activeWebview().locator('.msg.is-loaded');
    const all = await rows.evaluateAll((elements) =>
      elements.map((e) => ({
        agent: e.querySelector('.msg-agent')?.textContent ?? '',
        credit: (e as unknown as { dataset: Record<string, string | undefined> }).dataset['credit'] ?? '',
      })),
    );
    return all.filter((r) => r.credit !== '').map((r) => ({ agent: r.agent, credit: Number(r.credit) }));
  };

  /** Chooses a credit method in the Episode view's switcher and waits until the rows carry its values. */
  readonly chooseEpisodeMethod = async (
    method: string,
    accept: (rows: MessageCredit[]) => boolean,
  ): Promise<MessageCredit[]> => {
    const webview = this.activeWebview();
    await webview.locator('vscode-dropdown.method-switch').click();
    await webview.locator(`vscode-option[value="${method}"]`).click();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await this.messageCredits();
      if (rows.length > 0 && accept(rows)) return rows;
      if (Date.now() > deadline)
        throw new Error(`the ${method} credit never reached the rows: ${JSON.stringify(rows)}`);
      await this.page.waitForTimeout(250);
    }
  };

  /**
   * Makes folder `name` the current run folder by choosing it in the Runs view, which the palette
   * commands, the panels and the language-model tools follow. (Indexing it again from the Explorer
   * did not make it current on code-server 4.139.1 after other folders were indexed.)
   */
  readonly chooseRunFolder = async (name: string): Promise<void> => {
    const container = this.page.locator('.activitybar .action-item a[aria-label^="Credit Lens"]').first();
    if (!(await this.runsView().isVisible())) await container.click();
    const folder = this.runsView()
      .locator('.monaco-list-row', { hasText: new RegExp(`^${escapeRegExp(name)}`) })
      .first();
    await folder.waitFor({ timeout: 30_000 });
    await folder.click();
    await this.page.waitForTimeout(1000);
  };

  /**
   * Opens episode `id` of the current run folder by "Open Episode by Id…" (picking `run` when several
   * runs have the id) and waits for its first row.
   */
  readonly openEpisodeById = async (id: string, run?: string): Promise<void> => {
    await this.runCommand('Credit Lens: Open Episode by Id…');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(id);
    await this.page.keyboard.press('Enter');
    if (run !== undefined) await this.pickQuickRow(run);
    await this.activeWebview().locator('.msg.is-loaded').first().waitFor({ timeout: 60_000 });
  };

  /** Clicks the open quick pick's first row holding `text` ({@link clickQuickPickRow}). */
  private readonly pickQuickRow = (text: string): Promise<void> =>
    clickQuickPickRow(this.page, this.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first());

  /** Opens episode `id` of the demo's pipeline run (both demo runs number their episodes alike). */
  readonly openPipelineEpisode = (id: string): Promise<void> => this.openEpisodeById(id, 'planner-solver-verifier');

  /** Opens the Run Dashboard of the current run folder alone and waits for its agent table on `title`. */
  readonly openDashboard = async (title: string): Promise<FrameLocator> => {
    await this.runCommand('View: Close All Editors');
    await this.runCommand('Credit Lens: Open Run Dashboard');
    const webview = this.activeWebview();
    await webview.locator('.dashboard-title', { hasText: title }).waitFor({ timeout: 60_000 });
    await webview.locator('.agent-table tbody tr').first().waitFor({ timeout: 60_000 });
    return webview;
  };

  /**
   * Sets (or, with `undefined`, removes) a machine-scoped setting. The extension host of code-server
   * is remote, so such a setting goes in the Remote settings of the user data (User/settings.json is
   * not read for it there).
   */
  readonly setMachineSetting = (key: string, value: unknown): void => {
    const machine = join(this.userData, 'Machine');
    const remoteSettings = join(machine, 'settings.json');
    mkdirSync(machine, { recursive: true });
    const settings = existsSync(remoteSettings)
      ? (JSON.parse(readFileSync(remoteSettings, 'utf8') || '{}') as Record<string, unknown>)
      : {};
    if (value === undefined) delete settings[key];
    else settings[key] = value;
    writeFileSync(remoteSettings, JSON.stringify(settings, null, 2));
  };
}

/** Polls `predicate` every 250 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Clicks a row of the open quick pick, and again while the pick stays open: a click while the list
 * is being replaced can be lost (once on code-server 4.139.1, the run picker of "Open Episode by Id"
 * stayed open and the step waited a minute for the episode). Every step that picks a row uses it.
 */
export async function clickQuickPickRow(page: Page, row: Locator): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    if (attempt === 1) await row.click();
    // A pick that closes between the check below and this click took the earlier one.
    else
      await row.click({ timeout: 5_000 }).catch(async (error: unknown) => {
        if (await widget.isVisible()) throw error;
      });
    const closed = await widget
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
    if (closed || attempt === 3) return;
  }
}

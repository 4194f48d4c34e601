// The webview benchmark: how soon the Episode view shows a long episode in headless Chromium, against
// the budgets the issues set (first rows of 10,000 messages in 1 s and of 100,000 in 2 s, with at
// most 200 ms of that in the webview; swimlane blocks within 1 s of the timeline reply). It drives the
// browser tests' own harness and scripted host (test/browser), so it runs under tsx: the harness
// finds its files through import.meta, which the benchmark's bundle does not carry.
// `node dist/bench.js webview [--repeat N] [--json]` runs it; the browser tests assert what is shown.
import { creditFor, episodeData, estimatedOwenCredit, scriptedHost } from '../test/browser/episode/fixture';
import { openEpisode } from '../test/browser/episode/session';
import { timedSwimlanes } from '../test/browser/episode/timeline';
import { hasChromium, launchHarnessBrowser, type HarnessBrowser } from '../test/browser/harness/harness';
import { loadAverage, median } from './processTiming';

/** One timed view: its budgets and what each open measured. */
export interface WebviewOpenCase {
  readonly name: string;
  /** Budget of the whole open (in-page, from the episode's arrival), ms. */
  readonly budgetMs: number;
  /** Budget of the webview's own share, ms (null when the case measures no share). */
  readonly webviewBudgetMs: number | null;
  readonly openMs: number[];
  readonly webviewMs: number[];
}

export interface WebviewOpenResult {
  readonly repeat: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
  readonly cases: WebviewOpenCase[];
}

type Measure = (browser: HarnessBrowser) => Promise<{ openMs: number; webviewMs: number | null }>;

const episodeOpen =
  (count: number, intervals: boolean): Measure =>
  async (browser) => {
    const s = await openEpisode(browser, {
      host: scriptedHost({
        count,
        ...(intervals
          ? { credit: (method) => (method === 'owen' ? estimatedOwenCredit(count) : creditFor(method, count)) }
          : {}),
      }),
      data: episodeData(count, intervals ? { defaultMethod: 'owen' } : {}),
    });
    await s.close();
    return { openMs: s.openMs, webviewMs: s.webviewMs };
  };

/** The swimlanes' open is timed from the timeline reply's arrival to the first blocks. */
const swimlanesOpen =
  (count: number): Measure =>
  async (browser) => {
    const { h, replyMs } = await timedSwimlanes(browser, count);
    await h.close();
    return { openMs: replyMs, webviewMs: null };
  };

const cases: readonly { name: string; budgetMs: number; webviewBudgetMs: number | null; measure: Measure }[] = [
  { name: 'Episode view, 10,000 messages', budgetMs: 1000, webviewBudgetMs: 200, measure: episodeOpen(10_000, false) },
  {
    name: 'Episode view, 100,000 messages',
    budgetMs: 2000,
    webviewBudgetMs: 200,
    measure: episodeOpen(100_000, false),
  },
  {
    name: 'Episode view, 100,000 messages with Owen intervals',
    budgetMs: 2000,
    webviewBudgetMs: 200,
    measure: episodeOpen(100_000, true),
  },
  {
    name: 'swimlanes, 10,000 messages (from the timeline reply)',
    budgetMs: 1000,
    webviewBudgetMs: null,
    measure: swimlanesOpen(10_000),
  },
  {
    name: 'swimlanes, 100,000 messages (from the timeline reply)',
    budgetMs: 1000,
    webviewBudgetMs: null,
    measure: swimlanesOpen(100_000),
  },
];

/** Opens each view once to warm the browser, then `repeat` times measured. */
export async function webviewOpenBench(repeat: number): Promise<WebviewOpenResult> {
  const loadBefore = loadAverage();
  const browser = await launchHarnessBrowser();
  try {
    const results: WebviewOpenCase[] = [];
    for (const c of cases) {
      await c.measure(browser);
      const openMs: number[] = [];
      const webviewMs: number[] = [];
      for (let i = 0; i < repeat; i++) {
        const run = await c.measure(browser);
        openMs.push(run.openMs);
        if (run.webviewMs !== null) webviewMs.push(run.webviewMs);
      }
      results.push({ name: c.name, budgetMs: c.budgetMs, webviewBudgetMs: c.webviewBudgetMs, openMs, webviewMs });
    }
    return { repeat, loadBefore, loadAfter: loadAverage(), cases: results };
  } finally {
    await browser.close();
  }
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const within = (value: number, budget: number): string => (value < budget ? 'yes' : '**no**');

/** The Markdown table BENCHMARKS.md quotes: medians and worst runs against each budget. */
export function formatWebviewOpen(result: WebviewOpenResult): string {
  const rows = result.cases.map((c) => {
    const open = median(c.openMs);
    const share = c.webviewBudgetMs === null ? null : median(c.webviewMs);
    return [
      c.name,
      `${ms(open)} (worst ${ms(Math.max(...c.openMs))})`,
      ms(c.budgetMs),
      within(open, c.budgetMs),
      share === null ? '—' : `${ms(share)} (worst ${ms(Math.max(...c.webviewMs))})`,
      c.webviewBudgetMs === null || share === null
        ? '—'
        : `${ms(c.webviewBudgetMs)}: ${within(share, c.webviewBudgetMs)}`,
    ];
  });
  return [
    `Webview open in headless Chromium, median of ${String(result.repeat)} runs after one warm-up (load ${result.loadBefore.toFixed(2)} → ${result.loadAfter.toFixed(2)})`,
    '',
    '| view | first rows / blocks | budget | median within | in the webview | its budget |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

async function main(): Promise<void> {
  if (!hasChromium()) {
    process.stdout.write('webview benchmark skipped: Chromium is not installed (apt-get install -y chromium)\n');
    return;
  }
  const at = process.argv.indexOf('--repeat');
  const repeat = at > 0 ? Number(process.argv[at + 1]) : 5;
  const result = await webviewOpenBench(Number.isInteger(repeat) && repeat > 0 ? repeat : 5);
  process.stdout.write(`${process.argv.includes('--json') ? JSON.stringify(result) : formatWebviewOpen(result)}\n`);
}

if (process.argv[1]?.endsWith('webviewOpen.ts'))
  main().catch((error: unknown) => {
    process.stderr.write(`webview benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });

import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  watch,
} from 'node:fs';
import type { Uri } from 'vscode';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DashboardViewService } from '../src/engine/views/dashboardViewService';
import { runIndexInWorker } from '../src/engine/runIndexInWorker';
import { resolveIndexLocation } from '../src/engine/indexLocation';
import { LiveTail } from '../src/extension/liveTail';
import type { RunOverview } from '../src/protocol/dashboardPanel';
// Types only: the modules themselves are imported once the fake `vscode` is installed.
import type { RunsNode, RunsTreeProvider } from '../src/extension/tree/runsTreeProvider';
import { BrowseRepository } from '../src/store/browseRepository';
import { IndexStore } from '../src/store/indexStore';
import * as fakeVscode from '../test/unit/fakes/vscode';
import { mergeOverviewDelta } from '../webview/src/dashboard/overviewDelta';

// `node dist/bench.js live-tail [--dir D] [--db P] [--appends N]`: the latency from a line appended
// by a training job to the episode being visible in the Runs view and in the dashboard's data, on a
// run that already holds a large index. It drives the extension's own pieces: LiveTail's debounce
// and scheduling (fed by a recursive fs.watch instead of VS Code's file watcher), the incremental
// pass in the index worker, the Runs tree provider's refreshChanged() and the children VS Code
// re-reads on the expanded path to the episode (the `vscode` module is the unit tests' fake), and
// the dashboard service's delta merged into the overview the webview holds. `--dir` is appended to
// (default: a copy of bench-data/small in the temporary folder).

export interface LiveTailResult {
  readonly dir: string;
  readonly episodesBefore: number;
  readonly appends: number;
  /** Append → visible in both the tree's children and the dashboard's data, per append (ms). */
  readonly latencyMs: readonly number[];
  readonly passMs: readonly number[];
  /** The indexing inside the pass (the rest is the worker's start, opening the index and the summary). */
  readonly indexMs: readonly number[];
  readonly treeMs: readonly number[];
  readonly deltaMs: readonly number[];
  /** What the webview receives per pass: the delta, and the whole overview it fetched before. */
  readonly deltaBytes: readonly number[];
  readonly overviewBytes: readonly number[];
  readonly overviewMs: readonly number[];
  readonly deltaColumns: readonly number[];
  readonly overviewColumns: number;
}

interface Options {
  readonly dir: string;
  readonly dbPath: string | undefined;
  readonly appends: number;
  readonly workerScript: string;
  /** The folder is the bench's own copy: removed at the end. */
  readonly temporary: boolean;
}

type Tree = RunsTreeProvider;
type Node = RunsNode;

/** Makes `require('vscode')` return the unit tests' fake, for the modules imported after this call. */
function installFakeVscode(): void {
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = loader._load.bind(loader);
  loader._load = (request, parent, isMain) => (request === 'vscode' ? fakeVscode : original(request, parent, isMain));
}

/** The options from the command line; the default folder is a fresh copy of bench-data/small. */
export function liveTailOptions(argv: readonly string[], dataRoot: string, workerScript: string): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at > 0 ? argv[at + 1] : undefined;
  };
  const given = value('--dir');
  const dir = given ?? join(tmpdir(), `credit-lens-live-tail-${process.pid}`);
  if (!given) cpSync(join(dataRoot, 'small'), dir, { recursive: true });
  const appends = Number(value('--appends') ?? 30);
  return { dir, dbPath: value('--db'), appends, workerScript, temporary: given === undefined };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A copy of `dir` at `target` that a live tail may append to: every file hard-linked (no bytes
 * copied, so a 10 GB run costs nothing) except the step file the appends go to, a real copy.
 */
export function appendableCopy(dir: string, target: string): string {
  const link = (from: string, to: string): void => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) link(join(from, entry.name), join(to, entry.name));
      else if (entry.isFile()) linkSync(join(from, entry.name), join(to, entry.name));
    }
  };
  link(dir, target);
  const { file } = stepFile(target);
  rmSync(file);
  copyFileSync(join(dir, relative(target, file)), file);
  return target;
}

/** The newest step file of the folder's largest run, and template lines to re-serialise. */
export function stepFile(dir: string): { file: string; step: number; templates: Record<string, unknown>[] } {
  const runs = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.'));
  const rollouts = runs.map((d) => join(dir, d.name, 'rollouts')).find((p) => existsSync(p));
  if (!rollouts) throw new Error(`no rollouts folder in ${dir}`);
  const last = readdirSync(rollouts)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .at(-1);
  if (!last) throw new Error(`no step file in ${rollouts}`);
  const file = join(rollouts, last);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, 4);
  const templates = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { file, step: Number(templates[0]?.['step']), templates };
}

/** The trainer's next group of the step: the templates with new ids, a new group and their samples. */
function groupLines(templates: readonly Record<string, unknown>[], step: number, tag: string): string[] {
  return templates.map(
    (t, sample) => `${JSON.stringify({ ...t, id: `${tag}-r${sample}`, step, group: tag, sample })}\n`,
  );
}

/** Complete lines written by one append: visible once the tree lists them and the step counts them. */
interface Pending {
  readonly ids: readonly { readonly id: string; readonly group: string }[];
  readonly at: number;
  readonly stepEpisodes: number;
  shownInTree: boolean;
  shownInDashboard: boolean;
}

/** A recursive watch of the folder, as VS Code's file watcher feeds LiveTail in the extension. */
function watchFolder(root: string, onChange: () => void): { dispose(): void } {
  const watcher = watch(root, { recursive: true }, onChange);
  return { dispose: () => watcher.close() };
}

/** Resolves once `done()` holds (polling every 5 ms), throwing after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what} after ${ms} ms`);
    await sleep(5);
  }
}

/** The second half of a torn line, and its episode. */
interface Torn {
  readonly id: string;
  readonly group: string;
  readonly rest: string;
}

/**
 * What one append writes: the rest of the line torn before, then the group's lines, the last one
 * torn in half when `tear`; and the episodes whose line it completes.
 */
function appendText(
  lines: readonly string[],
  before: Torn | undefined,
  tear: boolean,
): { text: string; complete: { id: string; group: string }[]; torn: Torn | undefined } {
  const ids = lines.map((l) => {
    const { id, group } = JSON.parse(l) as { id: string; group: string };
    return { id, group };
  });
  const last = lines.at(-1) ?? '';
  const half = Math.floor(last.length / 2);
  const body = tear ? lines.slice(0, -1).join('') + last.slice(0, half) : lines.join('');
  const lastId = ids.at(-1);
  return {
    text: (before?.rest ?? '') + body,
    complete: [...(before ? [{ id: before.id, group: before.group }] : []), ...(tear ? ids.slice(0, -1) : ids)],
    torn: tear && lastId ? { ...lastId, rest: last.slice(half) } : undefined,
  };
}

/**
 * The episodes of each group in the tree's children along the path VS Code keeps expanded below a
 * refreshed run: [step ranges →] step → group → [pages →] episodes.
 */
function treeEpisodes(tree: Tree, run: Node, step: number, groups: ReadonlySet<string>): Set<string> {
  const label = (n: Node): string => tree.getTreeItem(n).label as string;
  let level = tree.getChildren(run);
  for (;;) {
    const range = level.find((n) => n.kind === 'steps' && n.range.from <= step && step <= n.range.to);
    if (!range) break;
    level = tree.getChildren(range);
  }
  const stepNode = level.find((n) => n.kind === 'step' && n.step.step === step);
  const shown = new Set<string>();
  for (const group of stepNode ? tree.getChildren(stepNode) : []) {
    if (!groups.has(label(group))) continue;
    for (const n of tree.getChildren(group))
      for (const e of n.kind === 'page' ? tree.getChildren(n) : [n]) shown.add(label(e));
  }
  return shown;
}

/** The index (built first when missing), the Runs tree and the dashboard service over it, and the largest run. */
async function openRun({ dir, dbPath, workerScript }: Options) {
  installFakeVscode();
  const { RunsTreeProvider } = await import('../src/extension/tree/runsTreeProvider');
  const { appendedOnly } = await import('../src/extension/backgroundIndexing');
  const location = resolveIndexLocation(dir, dbPath);
  if (!existsSync(location.path)) {
    process.stderr.write(`indexing ${dir} first…\n`);
    await runIndexInWorker({ root: dir, ...(dbPath ? { dbPath } : {}) }, workerScript).result;
  }
  const store = IndexStore.open(location.path);
  const browse = new BrowseRepository(store.db);
  const folder = fakeVscode.Uri.file(dir) as unknown as Uri;
  const tree: Tree = new RunsTreeProvider({ index: () => ({ folder, repository: browse }) });
  const service = new DashboardViewService(store.db, dir);
  const target = [...browse.runs()].sort((a, b) => b.episodes - a.episodes)[0];
  if (!target) throw new Error(`no run in ${dir}`);
  return { store, tree, service, target, appendedOnly };
}

export async function liveTail(options: Options): Promise<LiveTailResult> {
  const { dir, dbPath } = options;
  const { store, tree, service, target, appendedOnly } = await openRun(options);
  const { file, step, templates } = stepFile(dir);
  let held: RunOverview = service.overview(target.runId, 'loo', 0.01);
  const result = {
    dir,
    episodesBefore: target.episodes,
    appends: options.appends,
    ...{ latencyMs: [] as number[], passMs: [] as number[], indexMs: [] as number[], treeMs: [] as number[] },
    ...{ deltaMs: [] as number[], deltaBytes: [] as number[], deltaColumns: [] as number[] },
    ...{ overviewBytes: [] as number[], overviewMs: [] as number[], overviewColumns: held.steps.length },
  };
  // VS Code reads the root once; after a pass it re-reads the runs refreshChanged() fires.
  const findRun = (): Node | undefined =>
    tree.getChildren().find((n) => n.kind === 'run' && n.run.runId === target.runId);
  let runNode = findRun();
  tree.onDidChangeTreeData((changed) => (runNode = changed === undefined ? findRun() : runNode));
  const tag = `live${Date.now().toString(36)}`;
  let pending: Pending[] = [];
  let failure: unknown;
  let passStarted = 0;
  const stepEpisodes = (o: RunOverview): number => o.episodes[o.steps.indexOf(step)] ?? 0;
  let written = stepEpisodes(held);
  const tail = new LiveTail({
    watch: watchFolder,
    runPass: async (root) => {
      passStarted = performance.now();
      const pass = await runIndexInWorker({ root, ...(dbPath ? { dbPath } : {}) }, options.workerScript).result;
      result.passMs.push(performance.now() - passStarted);
      result.indexMs.push(pass.tally.elapsedMs);
      if (!appendedOnly(pass.tally)) throw new Error('a live pass re-read a file');
    },
    onPass: (_root, error) => {
      if (error) {
        failure = error;
        return;
      }
      const treeStarted = performance.now();
      tree.refreshChanged();
      const groups = new Set(pending.flatMap((p) => p.ids.map((e) => e.group)));
      const shown = runNode ? treeEpisodes(tree, runNode, step, groups) : new Set<string>();
      for (const p of pending) p.shownInTree ||= p.ids.every(({ id }) => shown.has(id));
      result.treeMs.push(performance.now() - treeStarted);
      const deltaStarted = performance.now();
      const delta = service.overviewDelta(target.runId, 'loo', 0.01, held.watermark ?? 0);
      held = mergeOverviewDelta(held, delta) ?? service.overview(target.runId, 'loo', 0.01);
      result.deltaMs.push(performance.now() - deltaStarted);
      result.deltaBytes.push(JSON.stringify(delta).length);
      result.deltaColumns.push(delta.columns.steps.length);
      const now = performance.now();
      for (const p of pending) {
        p.shownInDashboard ||= stepEpisodes(held) >= p.stepEpisodes;
        if (p.shownInTree && p.shownInDashboard) result.latencyMs.push(now - p.at);
      }
      pending = pending.filter((p) => !(p.shownInTree && p.shownInDashboard));
    },
  });
  tail.follow(dir);
  await sleep(500); // the recursive watcher is set up asynchronously
  let torn: Torn | undefined;
  for (let i = 0; i < options.appends; i++) {
    const next = appendText(groupLines(templates, step, `${tag}-g${i}`), torn, i % 5 === 4 && i + 1 < options.appends);
    const { text, complete } = next;
    torn = next.torn;
    written += complete.length;
    const at = performance.now();
    appendFileSync(file, text);
    pending.push({ ids: complete, at, stepEpisodes: written, shownInTree: false, shownInDashboard: false });
    await until(() => pending.length === 0 || failure !== undefined, 20_000, `append ${i + 1} not visible`);
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error('a live-tail pass failed');
    await compareWithFullFetch(service, target.runId, result);
    await sleep(200 + ((i * 137) % 400)); // the trainer's next group comes at an unrelated moment
  }
  tail.dispose();
  store.close();
  if (options.temporary) rmSync(dir, { recursive: true, force: true });
  return result;
}

/** What the webview fetched on every pass before deltas: the whole overview (measured outside the latency). */
async function compareWithFullFetch(
  service: DashboardViewService,
  runId: number,
  result: { overviewBytes: number[]; overviewMs: number[] },
): Promise<void> {
  await sleep(0);
  const started = performance.now();
  const overview = service.overview(runId, 'loo', 0.01);
  result.overviewMs.push(performance.now() - started);
  result.overviewBytes.push(JSON.stringify(overview).length);
}

export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
};

/** A Markdown summary: medians and p95 of the latency and its parts, bytes per pass. */
export function formatLiveTail(r: LiveTailResult): string {
  const row = (name: string, values: readonly number[], unit = 'ms'): string =>
    `| ${name} | ${values.length} | ${quantile(values, 0.5).toFixed(1)} ${unit} | ${quantile(values, 0.95).toFixed(1)} ${unit} |`;
  return [
    `Live tail on ${r.dir} (${r.episodesBefore.toLocaleString('en-US')} episodes indexed before), ${r.appends} appends of 4 lines (every fifth torn):`,
    '',
    '| measure | n | median | p95 |',
    '| --- | --- | --- | --- |',
    row('append → visible in the tree and the dashboard', r.latencyMs),
    row('incremental pass (index worker, whole)', r.passMs),
    row('… of which indexing the folder', r.indexMs),
    row('tree: refreshChanged + expanded path', r.treeMs),
    row('dashboard delta + merge', r.deltaMs),
    row('whole overview (what each pass fetched before)', r.overviewMs),
    row('bytes per pass: delta', r.deltaBytes, 'B'),
    row('bytes per pass: whole overview', r.overviewBytes, 'B'),
    row('step columns per pass: delta', r.deltaColumns, ''),
    `| step columns: whole overview | 1 | ${r.overviewColumns} | |`,
  ].join('\n');
}

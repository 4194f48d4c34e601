import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoRun } from '../src/demo/writeDemoRun';
import { barePass } from './barePass';
import { firstTable, formatFirstTable } from './firstTable';
import { creditPass, type CreditPass } from './creditBench';
import { auditValidation, formatValidation } from './auditValidation';
import { monteCarloConvergence } from './monteCarloConvergence';
import { formatCoverage, monteCarloCoverage } from './monteCarloCoverage';
import { indexAndAudit } from './realAudit';
import { hostBlocking } from './hostBlocking';
import { formatViewBench, viewBench } from './viewBench';
import { formatLiveTail, liveTail, liveTailOptions } from './liveTail';
import { formatThroughput, replayThroughput, serveSimulatedModel } from './replayThroughput';
import { formatReplayBudget, replayBudget } from './replayBudget';
import { formatConvergence, formatCreditPasses, formatReport, type DatasetResult } from './report';

// `npm run bench`: generates a ~1 GB run and a small one (cached in bench-data/), then measures in
// child processes (so peak RSS is the indexer's own): a bare JSON.parse pass, a cold index, and a
// re-run with no changes. `--small` skips the large run. `first-table` times the first LOO table
// against the pandas peer (bench/firstTable.ts).

interface Dataset {
  readonly name: string;
  readonly episodes: number;
}

const small: Dataset = { name: 'small', episodes: 4_000 };
const large: Dataset = { name: 'large', episodes: 130_000 };
const cli = join(__dirname, 'cli.js');
const self = join(__dirname, 'bench.js');
const dataRoot = join(process.cwd(), 'bench-data');

async function main(): Promise<void> {
  if (process.argv[2] === 'bare') {
    const result = barePass(process.argv[3] ?? '.');
    process.stdout.write(JSON.stringify({ ...result, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
    return;
  }
  if (process.argv[2] === 'credit') {
    const [dir = '.', db = '', method = 'loo', logged = 'true'] = process.argv.slice(3);
    process.stdout.write(JSON.stringify(await creditPass(dir, db, method as 'loo', logged === 'true')));
    return;
  }
  if (process.argv[2] === 'host') {
    const dir = process.argv[3] ?? join(dataRoot, 'large');
    process.stdout.write(`${JSON.stringify(await hostBlocking(dir, join(dataRoot, 'host.index.sqlite')))}\n`);
    return;
  }
  if (process.argv[2] === 'views') {
    const dataset = process.argv.includes('--small') ? small : large;
    process.stdout.write(
      `${formatViewBench(await viewBench(ensureDataset(dataset), join(dataRoot, `views-${dataset.name}.index.sqlite`)))}\n`,
    );
    return;
  }
  if (process.argv[2] === 'live-tail') {
    const options = liveTailOptions(process.argv, dataRoot, join(__dirname, 'indexWorker.js'));
    process.stdout.write(`${formatLiveTail(await liveTail(options))}\n`);
    return;
  }
  if (process.argv[2] === 'mc-coverage') {
    process.stdout.write(`${formatCoverage(await monteCarloCoverage())}\n`);
    return;
  }
  if (process.argv[2] === 'replay-server') return serveSimulatedModel();
  if (process.argv[2] === 'first-table') {
    const dir = ensureDataset(process.argv.includes('--small') ? small : large);
    const peer = join(__dirname, '..', 'bench', 'peers', 'pandas_loo.py');
    process.stdout.write(`${formatFirstTable(firstTable(dir, cli, peer, flag('--repeat', 3)))}\n`);
    return;
  }
  if (process.argv[2] === 'replay-throughput') {
    process.stdout.write(
      `${formatThroughput(await replayThroughput(self, flag('--requests', 512), flag('--repeat', 3)))}\n`,
    );
    return;
  }
  if (process.argv[2] === 'replay-budget') {
    const flag = (name: string, fallback: number): number => {
      const at = process.argv.indexOf(name);
      return at > 0 ? Number(process.argv[at + 1]) : fallback;
    };
    process.stdout.write(`${formatReplayBudget(await replayBudget(flag('--episodes', 640), flag('--repeat', 8)))}\n`);
    return;
  }
  if (process.argv[2] === 'validation') {
    process.stdout.write(`${formatValidation(await auditValidation(join(dataRoot, 'validation'), indexAndAudit))}\n`);
    return;
  }
  const datasets: Dataset[] = [small];
  if (!process.argv.includes('--small')) datasets.push(large);
  const results = datasets.map(measure);
  process.stdout.write(`${formatReport(results)}\n\n`);
  const last = datasets[datasets.length - 1];
  const credit = process.argv.includes('--no-credit') || !last ? [] : measureCredit(last);
  if (credit.length > 0) process.stdout.write(`${formatCreditPasses(last?.name ?? '', credit)}\n\n`);
  const convergence = monteCarloConvergence();
  process.stdout.write(`${formatConvergence(convergence)}\n\n`);
  const coverage = await monteCarloCoverage();
  process.stdout.write(`${formatCoverage(coverage)}\n\n`);
  const validation = await auditValidation(join(dataRoot, 'validation'), indexAndAudit);
  process.stdout.write(`${formatValidation(validation)}\n`);
  writeFileSync(
    join(dataRoot, 'results.json'),
    JSON.stringify({ results, credit, convergence, coverage, validation }, null, 2),
  );
}

/** Credit passes on the indexed dataset: logged values, then the built-in evaluator twice (cold, then cached). */
function measureCredit(dataset: Dataset): CreditPass[] {
  const dir = join(dataRoot, dataset.name);
  const db = join(dataRoot, `${dataset.name}.index.sqlite`);
  const pass = (method: string, logged: boolean): CreditPass =>
    runJson(self, ['credit', dir, db, method, String(logged)]) as CreditPass;
  return [
    pass('loo', true),
    pass('shapley', true),
    pass('loo', false),
    pass('shapley', false),
    pass('loo', false),
    pass('shapley', false),
  ];
}

function measure(dataset: Dataset): DatasetResult {
  const dir = ensureDataset(dataset);
  const db = join(dataRoot, `${dataset.name}.index.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  // The first pass warms the page cache, so both the baseline and the indexer read from memory.
  runJson(self, ['bare', dir]);
  const bare = runJson(self, ['bare', dir]) as DatasetResult['bare'];
  const cold = timed(() => runJson(cli, ['index', dir, '--db', db, '--json']) as IndexOutput);
  const warm = timed(() => runJson(cli, ['index', dir, '--db', db, '--json']) as IndexOutput);
  const indexBytes = ['', '-wal'].reduce((sum, s) => sum + (existsSync(db + s) ? statSync(db + s).size : 0), 0);
  return {
    name: dataset.name,
    bare,
    cold: { ...cold.value.pass, wallMs: cold.ms },
    warm: { ...warm.value.pass, wallMs: warm.ms },
    summary: cold.value.summary,
    indexBytes,
  };
}

interface IndexOutput {
  readonly pass: DatasetResult['cold'];
  readonly summary: DatasetResult['summary'];
}

function ensureDataset(dataset: Dataset): string {
  const dir = join(dataRoot, dataset.name);
  const marker = join(dir, 'dataset.json');
  const wanted = JSON.stringify({ episodes: dataset.episodes, groupsPerStep: 64, verbose: true, rounds: 3, seed: 7 });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`generating ${dataset.name} dataset (${dataset.episodes} episodes)…\n`);
  // 64 groups × 4 rollouts per step: ~2 MB per step file, the verl-like layout of product-targets T1.
  writeDemoRun(dir, {
    episodes: dataset.episodes,
    groupsPerStep: 64,
    verbose: true,
    rounds: 3,
    seed: 7,
    routed: false,
  });
  writeFileSync(marker, wanted);
  return dir;
}

/** The number after `--name` on the command line, else `fallback`. */
function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

function runJson(script: string, args: readonly string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const started = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

void main();

import { parseArgs } from 'node:util';
import { syncLineWriter } from './syncLineWriter';
import {
  advantagesFrom,
  auditOptions,
  compareOptions,
  creditOptions,
  demoOptions,
  exportOptions,
  influenceOptions,
  mcpOptions,
  oneDb,
  optionSpec,
  positiveInteger,
  requireDir,
  tableOptions,
} from './cliOptions';
import { exitCodes, UsageError, type CliIo } from './cliIo';
import { auditCommand } from './commands/auditCommand';
import { compareCommand } from './commands/compareCommand';
import { creditCommand } from './commands/creditCommand';
import { allAdvantageConventions } from '../credit/signals/advantageConventions';
import { defaultAdvantageConvention } from '../engine/credit/advantageConvention';
import { demoCommand } from './commands/demoCommand';
import { serveDemoAgentsCommand } from './commands/serveDemoAgentsCommand';
import { indexCommand } from './commands/indexCommand';
import { infoCommand } from './commands/infoCommand';
import { influenceCommand } from './commands/influenceCommand';
import { advantagesCommand } from './commands/advantagesCommand';
import { exportCommand } from './commands/exportCommand';
import { parquetExportCommand } from './commands/parquetExportCommand';
import { summaryCommand } from './commands/summaryCommand';
import { tableCommand } from './commands/tableCommand';
import { shardInputs } from './commands/shardInputs';
import { formatMappers } from '../ingest/importers/mappers';
import { importerList } from '../ingest/importers/registry';

const usage = `credit-lens — audit multi-agent LLM training traces

Usage:
  credit-lens index <run-dir> [--db PATH] [--json] [--no-search] [--format NAME]
      Index (or update the index of) a run folder: new files, appended lines, rewritten files.
      Each file's format is detected by content (Credit Lens JSONL and the formats listed by
      --format help); --format NAME reads every file with that importer instead.
  credit-lens info <run-dir> [--db PATH] [--json]
      Print the summary of an existing index without reading the traces.
  credit-lens credit <run-dir> --method NAME [--evaluator NAME[:k=v,…] | --evaluator-cmd "CMD"] [--dry-run]
                    [--run NAME] [--step A..B] [--budget N] [--no-logged] [--seed N] [--calibration X] [--advantage NAME]
                    [--split train|validation|all] [--timeout MS] [--concurrency N] [--messages] [--json | --csv] [--db PATH]
      Compute per-agent (and per-message) credit on an indexed run folder. Methods: shared, loo,
      shapley, shapley-mc, routing (also writes wta and routing-ipw), prefix, owen. Logged
      counterfactual / coalition values are used first; missing ones come from the evaluator
      (built-in final-answer by default; a run.json evaluator command is never run implicitly).
      --evaluator replay:url=http://HOST:PORT/v1[,model=NAME][,models=a=M;b=M][,mode=remove|default]
      [,samples=K][,temperature=T][,top_p=P][,max_tokens=N][,seed=S][,stream=true][,concurrency=N]
      [,timeout_ms=MS][,api_key_env=VAR]: replay each counterfactual on your OpenAI-compatible model
      server (docs/replay.md); the key is read from $CREDIT_LENS_REPLAY_API_KEY (or api_key_env).
      The estimate (calls, tokens) is printed first; --dry-run prints only the estimate.
      --budget N (loo): spend at most N evaluator calls (a replay's: calls to the model server),
      estimate the rest with a control variate.
      --no-logged: ignore logged counterfactuals and evaluate every coalition.
      --seed N (shapley-mc, owen above 14 messages, --budget): the seed of the random draws (default 1;
      printed with a Monte-Carlo result).
      --calibration X: agreement with the logged rewards an evaluator needs before its
      counterfactual values are used (default 0.95; 0 accepts any evaluator).
      Every value says where it came from (logged, replayed, checked, cached, estimated) and
      whether it is exact, estimated or approximate; episodes the data cannot answer are
      reported as not identifiable, with what would answer them.
      --advantage NAME: the trainer's GRPO advantage convention (\`--advantage help\` lists them);
      default: run.json "advantage", else the trace format or framework, else verl.
      --split train|validation|all: which episodes (default train: validation dumps, e.g. verl's
      validation_data_dir or run.json "splits", are left out).
  credit-lens table <run-dir> [--method loo|shapley|shared] [--run NAME] [--step A..B] [--split train|validation|all]
                    [--json | --csv]
      The first answer, without an index: per-agent credit and its mean per training step, read
      straight from the trace files in one pass (every format \`index\` reads) from the logged
      counterfactuals and coalition values. Nothing is stored; episodes the logged values cannot
      answer are counted as not identifiable, with what would answer them (index, then \`credit\`
      with an evaluator). --csv prints one row per (run, step, agent).
  credit-lens audit <run-dir> [--method loo|shapley] [--run NAME] [--threshold k=v,…] [--json | --sarif]
                   [--split train|validation|all]
                   [--evaluator NAME[:k=v,…] | --evaluator replay:url=… | --evaluator-cmd "CMD" | --evaluator none]
                   [--fail-on KINDS] [--no-text] [--db PATH]
      Flag silent, idle, free-rider, dominant agents and reward–credit decoupling, with evidence.
      --fail-on free-rider,idle exits 3 when such a flag is raised (for CI gates).
      --no-text: judge from credit and the roster only, without reading the message text
      (no emptiness, copying or final-answer evidence; several times faster on large runs).
  credit-lens compare <run-dir> [<run-dir-B>] [--run NAME] [--vs-run NAME] [--steps A..B] [--vs C..D]
                     [--method loo] [--json | --csv] [--fail-on share-drop=X,credit-drop=X,flag=KIND] [--db PATH]
      Compare two runs (or two step ranges of one run) on the same tasks: episodes paired by task
      id, else by prompt; per agent the credit difference B − A and the credit-share difference
      with 95% intervals and p, the team reward difference, flags that appeared or disappeared.
      Reads stored credit (run \`credit\` first). --fail-on exits 3 when an agent's share or mean
      credit fell by more than X, or B carries a flag of KIND.
  credit-lens export <run-dir> --otlp [--method NAME[,NAME…]] [--run NAME] [--out FILE] [--db PATH]
      Write the indexed episodes as OpenTelemetry GenAI spans (OTLP/JSON, one request per line),
      with the stored credit of the given methods as rl.credit events (docs/otel.md).
  credit-lens export [<run-dir>…] [--db PATH]… --parquet OUTDIR [--json]
      Write episodes, messages (without text), credit and flags of one or more indexes (one per
      shard) to OUTDIR/{episodes,messages,credit,flags}.parquet (docs/beyond-one-machine.md).
  credit-lens summary [<run-dir>…] [--db PATH]… [--method NAME] [--run NAME] [--json]
      Print the stored per-agent credit (default loo) and audit flags of one or more indexes read
      together (SQLite ATTACH); nothing is computed. A shard that cannot be read is named and left out.
  credit-lens influence <run-dir> [--episode ID] [--run NAME] [--step A..B] [--json] [--db PATH]
                       [--replay url=http://HOST:PORT/v1[,key=value…] [--max-messages N]]
      Print the influence graph (logged attribution weights, counterfactual effects of removing an
      agent, pairwise interactions) of one episode, or its mean over each run's steps. Influence is
      not credit: it does not add up to the reward. Every edge says where it comes from.
      --replay (with --episode; the keys of --evaluator replay:…) replays the episode on your model
      server: each message's effect on the outcome, v(M) − v(M∖{m}), for the first N messages
      (--max-messages, default 40), and how far each agent's output moves when another is removed
      (replayed-output: 1 − token-set Jaccard). Results are cached in the index: a rerun makes no call.
  credit-lens mcp <run-dir> [--db PATH] [--allow-compute]
      Serve the agent tools (list_runs, get_agent_credit, find_episodes, read_episode, explain_flag;
      docs/agent-tools.md) over the Model Context Protocol on stdio, for a coding agent's MCP client.
      Read-only unless --allow-compute (adds recompute_credit); nothing outside <run-dir> is readable.
  credit-lens advantages <run-dir> [--run NAME] [--signal shared|loo|shapley] [--format jsonl|parquet] [--out FILE] [--db PATH]
      Export one row per (sample, agent) with its GRPO advantage under the signal (default loo),
      the reward, the credit and its status and source, keyed by the trainer's sample identity
      (verl uid + rollout index, TRL step + row, the episode id), for a custom reward function
      (docs/advantages-export.md). JSONL goes to stdout without --out.
  credit-lens demo [--out DIR] [--episodes N] [--seed N] [--json]
      Write the seeded demo runs to DIR (default ./demo-run) and index them.
  credit-lens serve-demo-agents [--port N]
      Serve the demo's agents (a small deterministic program) as an OpenAI-compatible model server
      on 127.0.0.1, to try --evaluator replay:url=… without a GPU; prints the setting to use.

Options:
  --db PATH     index file (default <run-dir>/.credit-lens/index.sqlite, or the user cache
                folder when the run folder is read-only); summary and export --parquet take several
  --json        machine-readable output on stdout
  --no-search   skip building the full-text search index
  --format NAME read every trace file with this importer (index only; \`--format help\` lists them)
Exit codes: 0 done (bad trace lines are reported, not fatal), 1 fatal error, 2 usage error,
3 audit flags named by --fail-on were raised (compare: a --fail-on gate tripped).`;

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: optionSpec,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.out(usage);
      return command === undefined && !values.help ? exitCodes.usage : exitCodes.ok;
    }
    switch (command) {
      case 'index':
        if (values.format === 'help') return listFormats(io);
        return await indexCommand(
          {
            root: requireDir(rest),
            json: values.json,
            search: !values['no-search'],
            ...oneDb(values.db),
            ...(values.format !== undefined ? { format: values.format } : {}),
          },
          io,
        );
      case 'info':
        return infoCommand({ root: requireDir(rest), json: values.json, ...oneDb(values.db) }, io);
      case 'influence':
        return await influenceCommand(influenceOptions(requireDir(rest), values), io);
      case 'mcp': {
        // Loaded when asked for: the MCP server's libraries (its SDK, zod) cost every other command
        // about 25 MiB of resident memory from the start (BENCHMARKS.md, issue 15, twenty-sixth part).
        const { mcpCommand } = await import('./commands/mcpCommand');
        return await mcpCommand(mcpOptions(rest, values), io);
      }
      case 'advantages':
        return await advantagesCommand(advantagesFrom(requireDir(rest), values), io);
      case 'demo':
        return await demoCommand(demoOptions(values), io);
      case 'serve-demo-agents':
        return await serveDemoAgentsCommand(
          values.port === undefined ? {} : { port: positiveInteger(values.port, '--port') },
          io,
        );
      case 'credit':
        if (values.advantage === 'help') return listAdvantageConventions(io);
        return await creditCommand(creditOptions(requireDir(rest), values), io);
      case 'table':
        return await tableCommand(tableOptions(requireDir(rest), values), io);
      case 'audit':
        return await auditCommand(auditOptions(requireDir(rest), values), io);
      case 'compare':
        return compareCommand(compareOptions(rest, values), io);
      case 'export':
        if (values.parquet !== undefined && values.otlp) throw new UsageError('give --otlp or --parquet, not both');
        if (values.parquet !== undefined)
          return parquetExportCommand(
            { inputs: shardInputs(rest, values.db ?? []), outDir: values.parquet, json: values.json },
            io,
          );
        return await exportCommand(exportOptions(requireDir(rest), values), io);
      case 'summary':
        return summaryCommand(
          {
            inputs: shardInputs(rest, values.db ?? []),
            method: values.method ?? 'loo',
            json: values.json,
            ...(values.run ? { run: values.run } : {}),
          },
          io,
        );
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return reportError(error, io);
  }
}

/** `--advantage help`: the GRPO advantage conventions, one per line, with their source. */
function listAdvantageConventions(io: CliIo): number {
  for (const c of allAdvantageConventions()) io.out(`${c.name.padEnd(10)} ${c.summary.padEnd(42)} ${c.source}`);
  io.out(
    `Without --advantage: run.json "advantage", else the trace format or framework, else ${defaultAdvantageConvention}.`,
  );
  return exitCodes.ok;
}

/** `--format help`: the importers this build has, one per line (mapping files add their own). */
function listFormats(io: CliIo): number {
  for (const mapper of importerList(formatMappers))
    io.out(`${mapper.format.padEnd(20)} ${mapper.label} (${mapper.containers.join(', ')})`);
  io.out('Mapping files (mapping.json, *.mapping.json) in the run folder add the formats they name.');
  return exitCodes.ok;
}

function reportError(error: unknown, io: CliIo): number {
  const message = error instanceof Error ? error.message : String(error);
  const isUsage =
    error instanceof UsageError ||
    (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
  io.err(`credit-lens: ${message}`);
  if (isUsage) {
    io.err("Run 'credit-lens help' for usage.");
    return exitCodes.usage;
  }
  return exitCodes.fatal;
}

/** Runs the CLI on this process's arguments and sets the exit code. */
export function main(): void {
  // `credit-lens credit … --csv | head` closes the pipe early: stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const io: CliIo = {
    // Written before the next line is made, so a slow reader slows the command instead of filling memory.
    out: syncLineWriter(1, () => process.exit(0)),
    err: (line) => process.stderr.write(`${line}\n`),
    ...(process.stderr.isTTY ? { tty: process.stderr } : {}),
  };
  void runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) main();

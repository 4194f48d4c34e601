import { readInfluence, type InfluenceJobGraph, type InfluenceJobOptions } from '../../engine/influence/influenceJob';
import { replayInfluence, type ReplayedInfluenceGraph } from '../../engine/influence/replayInfluenceJob';
import { replayCostText, replayStatsText } from '../../engine/report/formatReplay';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { exitCodes, UsageError, type CliIo } from '../cliIo';
import { cancelledExitCode, ctrlC, evaluatorSettings, replayChoice } from '../replayCli';

/** What `credit-lens influence` takes: the job's options, `--replay` settings and `--max-messages`. */
export type InfluenceCommandOptions = Omit<InfluenceJobOptions, 'dbPath'> & {
  readonly json: boolean;
  readonly db?: string;
  /** `url=http://…/v1[,key=value…]` (or the URL alone), the keys of `--evaluator replay:…`. */
  readonly replay?: string;
  readonly maxMessages?: number;
};

/**
 * `credit-lens influence <run-dir>`: the influence graph of an episode or of each run's steps, as a
 * table or JSON; with `--replay`, the episode's replayed influence is computed first (and cached).
 */
export async function influenceCommand(options: InfluenceCommandOptions, io: CliIo): Promise<number> {
  const { db, replay, maxMessages, json, ...rest } = options;
  const job = { ...rest, ...(db !== undefined ? { dbPath: db } : {}) };
  if (replay === undefined && maxMessages !== undefined) throw new UsageError('--max-messages needs --replay');
  if (replay !== undefined && options.episode === undefined)
    throw new UsageError('--replay needs --episode ID: replayed influence is computed one episode at a time');
  const cancel = replay !== undefined ? ctrlC(io) : undefined;
  let graphs: readonly (InfluenceJobGraph | ReplayedInfluenceGraph)[];
  try {
    graphs =
      replay === undefined
        ? await readInfluence(job)
        : await replayInfluence({
            ...job,
            episode: options.episode ?? '',
            replay: replayOf(replay),
            ...(maxMessages !== undefined ? { maxMessages } : {}),
            ...(cancel ? { signal: cancel.signal } : {}),
            onWarning: (message) => io.err(`warning: ${message}`),
          });
  } finally {
    cancel?.dispose();
  }
  if (cancel?.signal.aborted) return cancelledExitCode;
  if (json) {
    io.out(JSON.stringify({ root: options.root, graphs }, null, 2));
    return exitCodes.ok;
  }
  for (const g of graphs) {
    const scope =
      g.episode !== null
        ? `episode ${g.episode}`
        : g.steps
          ? `steps ${String(g.steps[0])}–${String(g.steps[1])}`
          : 'all steps';
    io.out(`Influence in ${g.run || '(root run)'}, ${scope} (${countText(g.graph)}); influence is not credit`);
    if ('replay' in g) for (const line of replayLines(g)) io.out(line);
    for (const line of graphLines(g.graph)) io.out(line);
  }
  return exitCodes.ok;
}

/** `--replay url=…` or `--replay http://…`: the replay choice, as `--evaluator replay:…` parses it. */
function replayOf(text: string) {
  const spec = /^[a-z_]+=/.test(text) ? text : `url=${text}`;
  const { settings } = evaluatorSettings(`replay:${spec}`);
  return replayChoice(settings) as Extract<ReturnType<typeof replayChoice>, { kind: 'replay' }>;
}

function replayLines({ replay }: ReplayedInfluenceGraph): string[] {
  const { messages, estimate, usage, notes } = replay;
  return [
    `  replay: message edges for ${String(messages.computed)} of ${String(messages.total)} messages; estimate ${replayCostText(estimate)}; spent ${replayStatsText(usage)}`,
    ...notes.map((n) => `  ${n}`),
  ];
}

function countText(graph: InfluenceGraphView): string {
  const skipped = graph.skipped > 0 ? `, ${String(graph.skipped)} more not read` : '';
  return `${String(graph.episodes)} episode${graph.episodes === 1 ? '' : 's'}${skipped}`;
}

function graphLines(graph: InfluenceGraphView): string[] {
  const lines = graph.edges.map((e) => `  ${edgeText(e)}`);
  for (const a of graph.agents) if (a.noInfluence === true) lines.push(`  ${a.name}: no influence`);
  if (graph.missing !== null) lines.push(`  ${graph.missing}`);
  return lines;
}

function edgeText(e: InfluenceEdgeView): string {
  const value = `${e.value >= 0 ? '+' : ''}${e.value.toFixed(3)}`;
  const from = e.message !== undefined ? `${e.from} #${String(e.message + 1)}` : e.from;
  return `${from} → ${e.to ?? 'outcome'}  ${value}  ${e.kind}, ${e.exact ? 'exact' : 'approximate'}: ${e.provenance}`;
}

import { readInfluence, type InfluenceJobOptions } from '../../engine/influence/influenceJob';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../protocol/influence';
import { exitCodes, type CliIo } from '../cliIo';

/** `credit-lens influence <run-dir>`: the influence graph of an episode or of each run's steps, as a table or JSON. */
export async function influenceCommand(
  options: Omit<InfluenceJobOptions, 'dbPath'> & { readonly json: boolean; readonly db?: string },
  io: CliIo,
): Promise<number> {
  const { db, ...rest } = options;
  const graphs = await readInfluence({ ...rest, ...(db !== undefined ? { dbPath: db } : {}) });
  if (options.json) {
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
    for (const line of graphLines(g.graph)) io.out(line);
  }
  return exitCodes.ok;
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
  return `${e.from} → ${e.to ?? 'outcome'}  ${value}  ${e.kind}, ${e.exact ? 'exact' : 'approximate'}: ${e.provenance}`;
}

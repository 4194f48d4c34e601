import type { InfluenceEdgeView, InfluenceGraphView, InfluenceKind } from '../../../src/protocol/influence';

// The influence graph as an arc diagram (credit-methods.md §3.17): agents on one line in roster
// order, the outcome at the end; logged weights arc above the line, replayed output distances above
// and higher, counterfactual effects below, so two kinds between the same pair never overlap.
// Message → outcome edges are listed in the table only (one arc per message would hide the agents'). Pure: no DOM.

/** Horizontal distance between nodes, px. */
const spacing = 84;
const margin = 44;
/** The nodes' line and the arcs' extent above and below it. */
const lineY = 92;
const maxWidth = 7;
const minWidth = 1.5;

/** The outcome node's name in the graph and the table. */
export const outcomeName = 'outcome';

export interface InfluenceNode {
  readonly name: string;
  readonly x: number;
  readonly outcome: boolean;
  readonly noInfluence: boolean | null;
  /** What a screen reader and the hover say about the node. */
  readonly label: string;
}

export interface InfluenceArc {
  readonly key: string;
  readonly from: string;
  readonly to: string;
  readonly kind: InfluenceKind;
  readonly path: string;
  readonly width: number;
  readonly sign: 'positive' | 'negative' | 'zero';
  readonly exact: boolean;
  readonly label: string;
}

export interface InfluenceModel {
  readonly width: number;
  readonly height: number;
  readonly lineY: number;
  readonly nodes: readonly InfluenceNode[];
  readonly arcs: readonly InfluenceArc[];
}

/**
 * Lays out `graph`: one node per agent, the outcome last, one arc per edge between two different
 * nodes (an agent's edge to itself is only in the table). Width grows with |value| relative to the
 * largest |value| of the same kind (logged weights and reward units are not comparable), a sign
 * class colours it; a value of 0 is drawn thin and neutral.
 */
export function influenceModel(graph: InfluenceGraphView): InfluenceModel {
  const names = [...graph.agents.map((a) => a.name)];
  const x = new Map(names.map((name, i) => [name, margin + i * spacing]));
  const outcomeX = margin + names.length * spacing;
  const nodes: InfluenceNode[] = graph.agents.map((a) => ({
    name: a.name,
    x: x.get(a.name) ?? 0,
    outcome: false,
    noInfluence: a.noInfluence,
    label: `${a.name}: ${influenceStatus(a.noInfluence)}`,
  }));
  nodes.push({ name: outcomeName, x: outcomeX, outcome: true, noInfluence: null, label: 'the outcome (reward)' });
  const largest = largestByKind(graph.edges);
  const arcs: InfluenceArc[] = [];
  graph.edges.forEach((e, i) => {
    const x1 = x.get(e.from);
    const x2 = e.to === null ? outcomeX : x.get(e.to);
    if (x1 === undefined || x2 === undefined || x1 === x2 || e.message !== undefined) return;
    const above = e.kind === 'logged' || e.kind === 'replayed-output';
    const lift = Math.min(lineY - 12, (18 + Math.abs(x2 - x1) / 4) * (e.kind === 'replayed-output' ? 1.4 : 1));
    const mid = (x1 + x2) / 2;
    const cy = above ? lineY - lift * 2 : lineY + lift * 2;
    const scale = largest.get(e.kind) ?? 0;
    const share = scale > 0 ? Math.abs(e.value) / scale : 0;
    arcs.push({
      key: `${String(i)}:${e.kind}:${e.from}:${e.to ?? ''}`,
      from: e.from,
      to: e.to ?? outcomeName,
      kind: e.kind,
      path: `M${String(x1)},${String(lineY)} Q${String(mid)},${String(cy)} ${String(x2)},${String(lineY)}`,
      width: share > 0 ? minWidth + (maxWidth - minWidth) * share : 1,
      sign: signOf(e.value),
      exact: e.exact,
      label: edgeLabel(e),
    });
  });
  return { width: outcomeX + margin, height: lineY * 2, lineY, nodes, arcs };
}

/** An agent's mark in words. */
export function influenceStatus(noInfluence: boolean | null): string {
  if (noInfluence === true) return 'no influence';
  if (noInfluence === false) return 'influences others or the outcome';
  return 'effect of its removal not logged';
}

/** "planner → outcome: +0.365 (counterfactual, exact)". */
export function edgeLabel(e: InfluenceEdgeView): string {
  const value = Number.isFinite(e.value) ? `${e.value >= 0 ? '+' : '−'}${Math.abs(e.value).toFixed(3)}` : '—';
  return `${edgeSource(e)} → ${e.to ?? outcomeName}: ${value} (${e.kind}, ${e.exact ? 'exact' : 'approximate'})`;
}

/** Where an edge starts, in words: the agent, or its message for a message → outcome edge ("planner, message #2"). */
export function edgeSource(e: InfluenceEdgeView): string {
  return e.message === undefined ? e.from : `${e.from}, message #${String(e.message + 1)}`;
}

function signOf(value: number): InfluenceArc['sign'] {
  if (!(Math.abs(value) > 1e-9)) return 'zero';
  return value > 0 ? 'positive' : 'negative';
}

function largestByKind(edges: readonly InfluenceEdgeView[]): Map<InfluenceKind, number> {
  const largest = new Map<InfluenceKind, number>();
  for (const e of edges)
    if (Number.isFinite(e.value)) largest.set(e.kind, Math.max(largest.get(e.kind) ?? 0, Math.abs(e.value)));
  return largest;
}

import type { SignalDisagreementView } from '../../../src/protocol/dashboardPanel';
import { lineChartModel, type LineChartModel, type Series } from './lineModel';
import { alignedRow } from './matrix';
import { binLabel, binMean, stepBins } from './stepBins';

/** One agent's figures over the chart's steps (null where the step has no samples). */
export interface SignalAgentRows {
  readonly agent: string;
  readonly wrongWay: readonly (number | null)[];
  readonly noPush: readonly (number | null)[];
  /** Of `noPush`: the shared reward pushes while the agent's own signal is 0 (a free rider's story). */
  readonly sharedOnly: readonly (number | null)[];
  readonly rho: readonly (number | null)[];
  readonly samples: readonly (number | null)[];
}

/** The "Signal disagreement" chart: one line per agent of the share pushed the wrong way, tooltips with ρ and n. */
export interface SignalModel {
  readonly lines: LineChartModel;
  readonly agents: readonly SignalAgentRows[];
}

const percent = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(0)}%`);
const rhoText = (v: number | null): string => (v === null ? 'ρ —' : `ρ ${v.toFixed(2)}`);

/** The model of `view` for `agents` (roster order), with at most `maxHover` tooltip columns. */
export function signalModel(view: SignalDisagreementView, agents: readonly string[], maxHover = 200): SignalModel {
  const steps = view.wrongWay.cols;
  const rows = agents.map((agent): SignalAgentRows => ({
    agent,
    wrongWay: alignedRow(view.wrongWay, agent, steps),
    noPush: alignedRow(view.noPush, agent, steps),
    sharedOnly: alignedRow(view.sharedOnly, agent, steps),
    rho: alignedRow(view.rho, agent, steps),
    samples: alignedRow(view.samples, agent, steps),
  }));
  const series: Series[] = rows.map((r) => ({ key: r.agent, label: r.agent, values: r.wrongWay }));
  const base = lineChartModel(steps, series, { yDomain: [0, 1], maxHover, format: (v) => percent(v) });
  // The tooltips add each agent's rank correlation and samples (a bin spanning steps shows their means).
  const hover = stepBins(steps, maxHover).map((bin) => {
    const parts = rows.map((r) => {
      const n = binMean(r.samples, bin);
      const wrong = binMean(r.wrongWay, bin);
      return `${r.agent} ${percent(wrong)} wrong way, ${rhoText(binMean(r.rho, bin))}, n ${n === null ? '—' : String(Math.round(n))}`;
    });
    const prefix = bin.start + 1 === bin.end ? binLabel(bin) : `${binLabel(bin)} (mean)`;
    return { ...bin, text: `${prefix}: ${parts.join('; ')}` };
  });
  return { lines: { ...base, hover }, agents: rows };
}

/** Mean of the non-null values of `values` over steps whose value is in [from, to]; null when none. */
function meanOver(
  steps: readonly number[],
  values: readonly (number | null)[],
  from: number,
  to: number,
): number | null {
  const picked = values.filter(
    (v, i): v is number => v !== null && (steps[i] ?? NaN) >= from && (steps[i] ?? NaN) <= to,
  );
  return picked.length === 0 ? null : picked.reduce((s, v) => s + v, 0) / picked.length;
}

/** "steps 1–10 → steps 31–40: verifier 17% → 0%; …" per agent, first vs last quarter of the steps, for the caption. */
export function signalSummary(model: SignalModel): string {
  const steps = model.lines.steps;
  if (steps.length === 0) return 'No sign disagreement for these steps.';
  const k = Math.max(1, Math.floor(steps.length / 4));
  const first = { from: steps[0] ?? 0, to: steps[k - 1] ?? 0 };
  const last = { from: steps[steps.length - k] ?? 0, to: steps[steps.length - 1] ?? 0 };
  const parts = model.agents.flatMap((a) => {
    const head = meanOver(steps, a.wrongWay, first.from, first.to);
    const tail = meanOver(steps, a.wrongWay, last.from, last.to);
    return head === null || tail === null ? [] : [`${a.agent} ${percent(head)} → ${percent(tail)}`];
  });
  if (parts.length === 0) return 'No agent has samples with both advantages.';
  const alone = model.agents.flatMap((a) => {
    const head = meanOver(steps, a.sharedOnly, first.from, first.to);
    const tail = meanOver(steps, a.sharedOnly, last.from, last.to);
    return head === null || tail === null || (head === 0 && tail === 0)
      ? []
      : [`${a.agent} ${percent(head)} → ${percent(tail)}`];
  });
  const aloneText =
    alone.length === 0 ? '' : ` Pushed by the shared reward alone (own advantage 0): ${alone.join('; ')}.`;
  return `Pushed the wrong way by the shared reward, ${binLabel(first)} → ${binLabel(last)}: ${parts.join('; ')}.${aloneText}`;
}

/** A cell of the table: "17% wrong way, 50% no push (24% shared reward alone), ρ 0.41, n 32", or "no samples". */
export function signalCellText(rows: SignalAgentRows, i: number): string {
  const n = rows.samples[i] ?? null;
  if (n === null || n === 0) return 'no samples';
  return `${percent(rows.wrongWay[i] ?? null)} wrong way, ${percent(rows.noPush[i] ?? null)} no push (${percent(rows.sharedOnly[i] ?? null)} shared reward alone), ${rhoText(rows.rho[i] ?? null)}, n ${String(n)}`;
}

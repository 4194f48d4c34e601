import { max } from 'd3-array';
import type { RunOverview } from '../../../src/protocol/dashboardPanel';
import { lineChartModel, type LineChartModel } from './lineModel';
import { alignedRow } from './matrix';
import { binLabel, stepBins, type StepBin } from './stepBins';

/** Flags of one agent over one bin of steps (only bins with at least one flag). */
export interface FlagMark {
  readonly key: string;
  readonly agent: string;
  /** Position of the agent's row in the flag strip. */
  readonly row: number;
  readonly bin: StepBin;
  /** Most flags covering a step of the bin. */
  readonly count: number;
  readonly text: string;
}

/** The idle-rate lines and the flag-count strip. */
export interface IdleModel {
  readonly lines: LineChartModel;
  readonly marks: readonly FlagMark[];
  readonly agents: readonly string[];
  readonly maxCount: number;
  /** Number of bins the strip's step axis is divided into. */
  readonly bins: number;
}

type IdleInput = Pick<RunOverview, 'steps' | 'idleRate' | 'flagCounts'>;

/** Marks for the bins (at most `maxBins`) where `agent` has flags. */
export function flagMarks(overview: IdleInput, agents: readonly string[], bins: readonly StepBin[]): FlagMark[] {
  return agents.flatMap((agent, row) => {
    const counts = alignedRow(overview.flagCounts, agent, overview.steps);
    return bins.flatMap((bin) => {
      const count = max(counts.slice(bin.start, bin.end), (v) => v ?? undefined) ?? 0;
      if (count <= 0) return [];
      const text = `${agent}, ${binLabel(bin)}: ${String(count)} flag${count === 1 ? '' : 's'}`;
      return [{ key: `${agent}|${bin.key}`, agent, row, bin, count, text }];
    });
  });
}

/** The idle chart model: idle rate in [0, 1] per agent per step, and flag counts per agent per bin. */
export function idleModel(overview: IdleInput, agents: readonly string[], maxBins = 200): IdleModel {
  const series = agents.map((agent) => ({
    key: agent,
    label: agent,
    values: alignedRow(overview.idleRate, agent, overview.steps),
  }));
  const bins = stepBins(overview.steps, maxBins);
  const marks = flagMarks(overview, agents, bins);
  return {
    lines: lineChartModel(overview.steps, series, {
      yDomain: [0, 1],
      maxHover: maxBins,
      format: (v) => `${(v * 100).toFixed(0)}%`,
    }),
    marks,
    agents,
    maxCount: max(marks, (m) => m.count) ?? 0,
    bins: bins.length,
  };
}

import { max } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import type { AgentSummary } from '../../../src/protocol/dashboardPanel';
import { agentPalette } from '../charts/palette';
import { h, replaceChildren } from '../dom';
import { formatCredit } from '../kit/format';
import { agentCells, agentColumns, auditCaption, coverageCaption } from './agentCells';
import { plural } from '../../../src/core/plural';
import { leftOutText, statusSentence } from './chartText';

const svgNs = 'http://www.w3.org/2000/svg';
const histogramWidth = 220;
const histogramHeight = 56;

/**
 * The agent summary above the charts (the whole dashboard for a step-less run): per-agent table,
 * the audit state with every unreachable verdict, and each agent's credit histogram on one axis.
 */
export class AgentSummaryPanel {
  readonly element = h('section', 'agent-summary');
  private readonly heading = h('h2', 'agent-summary-title', 'Agents');
  private readonly body = h('div', 'agent-summary-body');

  constructor() {
    this.element.setAttribute('aria-label', 'Agent summary');
    this.element.append(this.heading, this.body);
    this.element.hidden = true;
  }

  /** Shows nothing (no run, or the summary is loading for another run). */
  clear(): void {
    this.element.hidden = true;
    replaceChildren(this.body);
  }

  /** Shows why the summary could not be read. */
  showError(text: string): void {
    this.element.hidden = false;
    replaceChildren(this.body, h('p', 'error', text));
  }

  update(summary: AgentSummary, methodLabel: string): void {
    this.element.hidden = false;
    this.heading.textContent = `Agents under ${methodLabel}`;
    const coverage = coverageCaption(summary, methodLabel);
    const isStepless = summary.steplessEpisodes > 0 && summary.steplessEpisodes === summary.coverage.episodes;
    const stepless = isStepless ? 'No episode of this run logs a training step: this summary is the whole run.' : '';
    replaceChildren(
      this.body,
      ...[coverage, stepless].filter((t) => t !== '').map((t) => h('p', 'agent-summary-note', t)),
      // A step-less run has no charts panel: its credit notice (why no credit, what would answer it) is here.
      ...(isStepless ? creditState(summary, methodLabel) : []),
      auditState(summary),
      agentTable(summary),
      histograms(summary, methodLabel),
    );
  }
}

/** Why the method's credit is missing or partial, in words ("not identifiable: …"); nothing when all is drawn. */
function creditState(summary: AgentSummary, methodLabel: string): HTMLElement[] {
  const lines = [
    ...(summary.status === 'computed' ? [] : [statusSentence(summary.status, methodLabel)]),
    ...leftOutText(summary.coverage),
  ];
  if (lines.length === 0) return [];
  const state = h('div', `agent-credit-state status-${summary.status}`, ...lines.map((t) => h('p', undefined, t)));
  state.setAttribute('role', 'status');
  return [state];
}

function auditState(summary: AgentSummary): HTMLElement {
  const state = h(
    'div',
    `agent-audit ${summary.audit ? 'audited' : 'not-audited'}`,
    h('p', undefined, auditCaption(summary)),
  );
  const missed = summary.audit?.unreachable ?? [];
  if (missed.length > 0) {
    const list = h('ul', 'unreachable-list', ...missed.map((m) => h('li', undefined, m)));
    list.setAttribute('aria-label', 'Verdicts not reached');
    state.append(h('details', 'unreachable', h('summary', undefined, 'Verdicts not reached, with the reason'), list));
  }
  return state;
}

function agentTable(summary: AgentSummary): HTMLElement {
  const head = h('tr', undefined, ...agentColumns.map((c) => h('th', undefined, c)));
  head.querySelectorAll('th').forEach((th) => th.setAttribute('scope', 'col'));
  const rows = summary.agents.map((row) =>
    h('tr', undefined, ...agentCells(row, summary).map((cell) => h('td', `cell-${cell.kind}`, cell.text))),
  );
  const table = h('table', 'agent-table', h('thead', undefined, head), h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', 'Per-agent summary');
  return table;
}

/** One small histogram per agent, every one on the summary's shared credit domain and count axis. */
function histograms(summary: AgentSummary, methodLabel: string): HTMLElement {
  const histogram = summary.histogram;
  if (!histogram) return h('p', 'placeholder histogram-none', `No ${methodLabel} credit to draw per agent.`);
  const color = agentPalette(summary.agents.map((a) => a.agent));
  const bins = histogram.counts.cols.length;
  const tallest = max(histogram.counts.values, (v) => v ?? 0) ?? 0;
  const [lo, hi] = histogram.domain;
  const items = histogram.counts.rows.map((agent, r) => {
    const counts = histogram.counts.values.slice(r * bins, (r + 1) * bins).map((v) => v ?? 0);
    return h(
      'figure',
      'agent-histogram',
      h('figcaption', undefined, agent),
      histogramSvg(
        counts,
        tallest,
        color(agent),
        `${agent}: ${methodLabel} credit of ${plural(
          counts.reduce((s, n) => s + n, 0),
          'episode',
        )} from ${formatCredit(lo)} to ${formatCredit(hi)}`,
      ),
    );
  });
  return h(
    'div',
    'agent-histograms',
    h(
      'p',
      'agent-summary-note',
      `Credit per episode, ${formatCredit(lo)} to ${formatCredit(hi)} on every agent's axis.`,
    ),
    ...items,
  );
}

function histogramSvg(counts: readonly number[], tallest: number, fill: string, label: string): SVGSVGElement {
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('class', 'chart chart-histogram');
  svg.setAttribute('viewBox', `0 0 ${String(histogramWidth)} ${String(histogramHeight)}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const y = scaleLinear()
    .domain([0, Math.max(1, tallest)])
    .range([0, histogramHeight - 2]);
  const width = histogramWidth / Math.max(1, counts.length);
  counts.forEach((n, i) => {
    if (n === 0) return;
    const bar = document.createElementNS(svgNs, 'rect');
    bar.setAttribute('x', String(i * width + 0.5));
    bar.setAttribute('width', String(Math.max(1, width - 1)));
    bar.setAttribute('y', String(histogramHeight - y(n)));
    bar.setAttribute('height', String(y(n)));
    bar.setAttribute('fill', fill);
    bar.setAttribute('class', 'histogram-bar');
    svg.append(bar);
  });
  return svg;
}

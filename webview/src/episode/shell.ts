import { h } from '../dom';

/** The fixed regions of the Episode view that the app fills. */
export interface Shell {
  readonly root: HTMLElement;
  readonly header: HTMLElement;
  readonly task: HTMLElement;
  readonly blame: HTMLElement;
  readonly toolbar: HTMLElement;
  readonly recompute: HTMLElement;
  readonly notices: HTMLElement;
  readonly legend: HTMLElement;
  /** The swimlanes (webview/src/episode/swimlanes/), between the legend and the message list. */
  readonly lanes: HTMLElement;
  readonly timeline: HTMLElement;
  readonly agents: HTMLElement;
  readonly details: HTMLElement;
  readonly live: HTMLElement;
}

/**
 * Header, task (prompt, ground truth, metadata, raw record), toolbar and credit state on top; the timeline (legend + virtual list) and the summary
 * side panel below. Only `notices` and `live` are live regions: the timeline changes on every
 * scroll and must not be announced.
 */
export function buildShell(): Shell {
  const region = (className: string): HTMLElement => h('div', className);
  const shell = {
    header: region('header-slot'),
    task: region('task-slot'),
    blame: region('blame-slot'),
    toolbar: region('toolbar-slot'),
    recompute: region('recompute-slot'),
    notices: region('notices'),
    legend: region('legend-slot'),
    lanes: region('lanes-slot'),
    timeline: region('timeline-slot'),
    agents: region('agents-slot'),
    details: region('details-slot'),
    live: h('div', 'visually-hidden'),
  };
  shell.notices.setAttribute('aria-live', 'polite');
  shell.live.setAttribute('aria-live', 'polite');
  const top = h(
    'div',
    'episode-top',
    shell.header,
    shell.task,
    shell.blame,
    shell.toolbar,
    h('div', 'credit-bar', shell.recompute, shell.notices),
  );
  const timeline = h(
    'section',
    'timeline',
    h('h2', 'visually-hidden', 'Messages'),
    shell.legend,
    shell.lanes,
    shell.timeline,
  );
  timeline.setAttribute('aria-label', 'Message timeline');
  const side = h('aside', 'sidebar', shell.agents, shell.details);
  side.setAttribute('aria-label', 'Episode summary');
  const root = h('div', 'episode', top, h('div', 'episode-body', timeline, side), shell.live);
  return { ...shell, root };
}

/** Replaces the content of a region. */
export function fill(region: HTMLElement, ...children: (Node | null)[]): void {
  region.replaceChildren(...children.filter((c): c is Node => c !== null));
}

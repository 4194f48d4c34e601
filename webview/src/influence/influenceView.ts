import type { InfluenceGraphView } from '../../../src/protocol/influence';
import { h } from '../dom';
import { renderInfluence } from './renderInfluence';

/**
 * The influence section of a view (Episode view, Run Dashboard): asks the host for a graph and shows
 * it, a loading line meanwhile and the error if the request fails. Only the latest request is shown.
 */
export class InfluenceView {
  readonly element = h('div', 'influence-slot');
  private token = 0;

  /** Loads and shows the graph `load` resolves to; `scope` says what it covers ("in this episode"). */
  show(load: () => Promise<InfluenceGraphView>, scope: string): void {
    const token = ++this.token;
    this.element.replaceChildren(h('p', 'placeholder', 'Loading the influence graph…'));
    load().then(
      (graph) => {
        if (token === this.token) this.element.replaceChildren(renderInfluence(graph, scope));
      },
      (error: unknown) => {
        if (token !== this.token) return;
        const text = error instanceof Error ? error.message : String(error);
        this.element.replaceChildren(h('p', 'error', `The influence graph could not be read: ${text}`));
      },
    );
  }
}

import type { CreditEpisode, CreditRow } from '../../core/creditInput';
import { joinSources, type ComputedStatus, type ValueSource } from '../../core/provenance';
import type { ValueInfo } from './coalitionValues';

/** Provenance shared by every row of one computation, unless a row overrides it. */
export interface RowProvenance {
  readonly source: string;
  readonly status: ComputedStatus;
}

/** One row per agent, in roster order. */
export function agentRows(
  episode: CreditEpisode,
  values: ArrayLike<number>,
  provenance: RowProvenance,
  extra: Partial<CreditRow>[] = [],
): CreditRow[] {
  return episode.agents.map((agent, i) => ({
    episodeId: episode.episodeId,
    agentId: agent.agentId,
    messageSeq: null,
    value: values[i] ?? Number.NaN,
    stderr: null,
    ciLow: null,
    ciHigh: null,
    n: null,
    status: provenance.status,
    source: provenance.source,
    intervention: null,
    advantage: null,
    ...extra[i],
  }));
}

/** Row provenance from the values a computation used: their sources, exact unless one was not. */
export function provenanceOf(infos: Iterable<ValueInfo>, status: ComputedStatus = 'exact'): RowProvenance {
  const sources = new Set<ValueSource>();
  let exact = true;
  for (const info of infos) {
    sources.add(info.source);
    exact &&= info.exact;
  }
  return { source: joinSources(sources), status: exact ? status : 'approximate' };
}

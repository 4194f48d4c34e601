import type { CreditEpisode, CreditRow } from '../../core/creditInput';
import { joinSources, valueSources, type ComputedStatus } from '../../core/provenance';
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
  return episode.agents.map((agent, i) => {
    const row = agentRow(episode.episodeId, agent.agentId, values[i] ?? Number.NaN, provenance);
    const more = extra[i];
    return more ? { ...row, ...more } : row;
  });
}

/** One agent-level row without interval or advantage (one object per row: a pass makes one per agent and episode). */
export function agentRow(
  episodeId: number,
  agentId: number,
  value: number,
  provenance: RowProvenance,
  intervention: string | null = null,
): CreditRow {
  return {
    episodeId,
    agentId,
    messageSeq: null,
    value,
    stderr: null,
    ciLow: null,
    ciHigh: null,
    n: null,
    status: provenance.status,
    source: provenance.source,
    intervention,
    advantage: null,
  };
}

/** Row provenance from the values a computation used: their sources, exact unless one was not. */
export function provenanceOf(infos: Iterable<ValueInfo>, status: ComputedStatus = 'exact'): RowProvenance {
  let sources = 0; // bit k = valueSources[k]
  let exact = true;
  for (const info of infos) {
    sources |= 1 << valueSources.indexOf(info.source);
    exact &&= info.exact;
  }
  return { source: joinedSources(sources), status: exact ? status : 'approximate' };
}

/** {@link joinSources} of a set of sources as bits over `valueSources`, joined once per set (rows repeat a few sets). */
const joined = new Map<number, string>();
function joinedSources(bits: number): string {
  let text = joined.get(bits);
  if (text === undefined) {
    text = joinSources(valueSources.filter((_, k) => (bits >> k) & 1));
    joined.set(bits, text);
  }
  return text;
}

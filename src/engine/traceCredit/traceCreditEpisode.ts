import {
  withLoggedValues,
  type CreditAgent,
  type CreditEpisode,
  type CreditLabel,
  type LoggedCounterfactual,
} from '../../core/creditInput';
import type { CompactEpisode } from '../../core/indexing';
import { messageAuthors } from '../../core/packedEpisodeJson';

/** Where a parsed episode sits: its file and the file's importer. */
export interface TraceEpisodePlace {
  readonly uri: string;
  readonly format: string;
}

/**
 * The credit engine's view of a parsed episode, built as CreditInputRepository builds it from the
 * index (the same roster order, the same logged values, the same precedence), for a pass that
 * stores nothing: agent ids are roster ordinals, the episode's id is its line. Agents in roster
 * order (declared, then undeclared speakers); logged values by {@link withLoggedValues}; a value
 * naming an agent outside the roster is left out, as the index writer leaves it out
 * (store/episodeWriter.ts).
 */
export function traceCreditEpisode(e: CompactEpisode, place: TraceEpisodePlace): CreditEpisode {
  const agents: CreditAgent[] = e.roster.map((a, i) => ({ agentId: i, name: a.name }));
  const bits = new Map(agents.map((a, i) => [a.name, 1n << BigInt(i)]));
  const full = (1n << BigInt(agents.length)) - 1n;
  const logged = new Map<bigint, number>();
  for (const c of e.extras.coalitions ?? []) {
    const mask = maskOf(c.agents, bits);
    if (mask !== undefined) logged.set(mask, c.value);
  }
  const counterfactuals: LoggedCounterfactual[] = [];
  for (const cf of e.extras.counterfactuals ?? []) {
    const removed = maskOf(cf.agents, bits);
    if (removed !== undefined)
      counterfactuals.push({ removed, intervention: cf.intervention, replayed: cf.replayed ?? null, value: cf.reward });
  }
  return {
    episodeId: e.line,
    externalId: e.id,
    runId: 0,
    step: e.step,
    group: e.group,
    reward: e.reward,
    groundTruth: e.groundTruth,
    uri: place.uri,
    format: place.format,
    offset: e.offset,
    length: e.length,
    line: e.line,
    agents,
    loggedCoalitions: withLoggedValues(logged, counterfactuals, e.reward, full),
    loggedCounterfactuals: counterfactuals,
    messageAuthors: messageAuthors(e.messagesJson),
    labels: labelsOf(e),
  };
}

function labelsOf(e: CompactEpisode): CreditLabel[] {
  return (e.extras.labels ?? []).map((l) => ({
    kind: l.kind,
    agent: l.agent ?? null,
    messageSeq: l.message ?? null,
    value: l.value ?? null,
    reason: l.reason ?? null,
  }));
}

/** Bitmask of named agents over the roster; undefined when one is not in it. */
function maskOf(names: readonly string[], bits: ReadonlyMap<string, bigint>): bigint | undefined {
  let mask = 0n;
  for (const name of names) {
    const bit = bits.get(name);
    if (bit === undefined) return undefined;
    mask |= bit;
  }
  return mask;
}

import type { RoutingView } from '../../protocol/episodePanel';
import type { StoredRouting } from '../../store/episodeViewRepository';
import { maxMetadataChars } from './episodeTextLimits';
import { megabytes } from '../report/format';
import { isRecord } from '../../ingest/importers/formats/common/json';
import { parsedJson } from './parsedJson';

// What the Episode view shows from the index beside the messages: metadata and the routing decision.

/** The episode's metadata for the panel, or why it is not sent (too large, or not an object as stored). */
export function metadataView(json: string | null): {
  metadata: Readonly<Record<string, unknown>> | null;
  metadataNote: string | null;
} {
  if (json === null) return { metadata: null, metadataNote: null };
  if (json.length > maxMetadataChars)
    return {
      metadata: null,
      metadataNote: `The metadata (${megabytes(json.length)} as JSON) is too large to show here; the raw record has it.`,
    };
  const value = parsedJson(json);
  return isRecord(value)
    ? { metadata: value, metadataNote: null }
    : { metadata: null, metadataNote: 'The stored metadata is not a JSON object; re-index the run.' };
}

/** The routing decision with every expert, most probable first; undefined when the stored probabilities do not parse. */
export function routingView(stored: StoredRouting | undefined): RoutingView | null {
  if (!stored) return null;
  const probs = probabilities(stored.probsJson);
  const behaviour = stored.behaviourProbsJson === null ? {} : probabilities(stored.behaviourProbsJson);
  const experts = Object.entries(probs)
    .map(([name, probability]) => ({ name, probability, behaviourProbability: behaviour[name] ?? null }))
    .sort((a, b) => b.probability - a.probability || a.name.localeCompare(b.name));
  return { selected: stored.selected, experts };
}

/** `{name: probability}` with only finite numbers kept; `{}` for anything else. */
function probabilities(json: string): Record<string, number> {
  const value = parsedJson(json);
  if (!isRecord(value)) return {};
  const out: Record<string, number> = {};
  for (const [name, p] of Object.entries(value)) if (typeof p === 'number' && Number.isFinite(p)) out[name] = p;
  return out;
}

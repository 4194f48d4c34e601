import type { AgentDecl, AgentKind, Episode, FinalAnswer, Label } from '../../../../core/episode';
import { decodeEpisode } from '../../../canonical/decodeEpisode';
import { definedOnly, idText, integerOf, isRecord, jsonText, numberOf, stringOf } from '../common/json';
import { spanOutputs, spanPrompt } from './traceOtelContent';
import { evaluationNames, genAi, rl } from './traceOtelNames';
import { agentNameOf, operationOf, producedMessages, TraceView, type ProducedMessage } from './traceOtelTrace';
import type { OtelEvent, OtelSpan } from './traceOtlpSpans';
import { TraceRoster } from '../common/traceRoster';

// One OpenTelemetry trace → one canonical episode (trace-formats.md §4, §6; docs/otel.md).

const agentKinds: readonly AgentKind[] = ['llm', 'tool', 'env', 'human', 'user_sim', 'orchestrator', 'system', 'judge'];

function kindOf(value: unknown, fallback: AgentKind): AgentKind {
  return agentKinds.find((k) => k === value) ?? fallback;
}

/**
 * The roster: the manifest's, then one agent per `create_agent` span (the declaration). Without
 * `create_agent` spans (and without `rl.agents.declared`), every agent that speaks is declared:
 * `llm` for agents, `tool` for tools.
 */
function roster(view: TraceView, produced: readonly ProducedMessage[], seed: readonly AgentDecl[]): AgentDecl[] {
  const team = new TraceRoster(seed);
  const creates = view.spans.filter((s) => operationOf(s) === 'create_agent');
  for (const span of creates) {
    const a = span.attributes;
    const name = agentNameOf(span);
    if (name === undefined) continue;
    const trainable = a.get(rl.agentTrainable);
    team.add(
      definedOnly({
        name,
        kind: kindOf(a.get(rl.agentKind), 'llm'),
        policy: stringOf(a.get(rl.agentPolicy)),
        trainable: typeof trainable === 'boolean' ? trainable : undefined,
        description: stringOf(a.get(genAi.agentDescription)),
      }),
    );
  }
  if (creates.length > 0 || view.attr(rl.agentsDeclared) === true) return team.list();
  for (const { span, message, tool } of produced) {
    const agentSpan = tool ? undefined : view.agentSpan(span);
    const description = agentSpan ? stringOf(agentSpan.attributes.get(genAi.agentDescription)) : undefined;
    team.add(definedOnly({ name: message.agent, kind: tool ? 'tool' : 'llm', description }));
  }
  return team.list();
}

const labelScores: Readonly<Record<string, number>> = {
  pass: 1,
  correct: 1,
  true: 1,
  yes: 1,
  fail: 0,
  incorrect: 0,
  false: 0,
  no: 0,
};

/** `gen_ai.evaluation.score.value`, else a pass / fail `score.label`. */
function evaluationScore(event: OtelEvent): number | undefined {
  const label = stringOf(event.attributes.get(genAi.scoreLabel))?.toLowerCase();
  return numberOf(event.attributes.get(genAi.scoreValue)) ?? (label === undefined ? undefined : labelScores[label]);
}

/** The agent an event speaks of: its `gen_ai.agent.name`, else the span's agent (not for the root span). */
function eventAgent(view: TraceView, span: OtelSpan, event: OtelEvent): string | undefined {
  return idText(event.attributes.get(genAi.agentName)) ?? (span === view.root ? undefined : view.agentOf(span));
}

function eventsNamed(view: TraceView, name: string): { span: OtelSpan; event: OtelEvent }[] {
  return view.spans.flatMap((span) => span.events.filter((e) => e.name === name).map((event) => ({ span, event })));
}

/**
 * Rewards from `gen_ai.evaluation.result` events: one naming an agent (or on an agent's span) is
 * that agent's reward; the others are team rewards, of which `rl.reward`, else the one named
 * `reward`, else the first, is the episode's reward.
 */
function rewards(view: TraceView): { reward?: number; agentRewards?: Record<string, number> } {
  const team: { name?: string; score: number }[] = [];
  const perAgent: Record<string, number> = {};
  for (const { span, event } of eventsNamed(view, genAi.evaluationEvent)) {
    const score = evaluationScore(event);
    if (score === undefined) continue;
    const agent = eventAgent(view, span, event);
    if (agent !== undefined) perAgent[agent] = score;
    else team.push(definedOnly({ name: stringOf(event.attributes.get(genAi.evaluationName)), score }));
  }
  const reward =
    numberOf(view.attr(rl.reward)) ?? (team.find((t) => t.name === evaluationNames.team) ?? team[0])?.score;
  return definedOnly({ reward, agentRewards: Object.keys(perAgent).length > 0 ? perAgent : undefined });
}

/** Per-agent values of `rl.advantage` events. */
function advantages(view: TraceView): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const { span, event } of eventsNamed(view, rl.advantageEvent)) {
    const agent = eventAgent(view, span, event);
    const value = numberOf(event.attributes.get(rl.value));
    if (agent !== undefined && value !== undefined) out[agent] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `rl.label` events, on the message their span produced, in `rl.label.index` order. */
function labels(view: TraceView, produced: readonly ProducedMessage[]): Label[] | undefined {
  const messageOf = new Map(produced.map((p, i) => [p.span.spanId, i]));
  const found = eventsNamed(view, rl.labelEvent).flatMap(({ span, event }, order) => {
    const a = event.attributes;
    const kind = stringOf(a.get(rl.labelKind));
    if (kind === undefined) return [];
    const label: Label = definedOnly({
      kind,
      agent: idText(a.get(genAi.agentName)),
      message: messageOf.get(span.spanId),
      value: stringOf(a.get(rl.labelValue)),
      reason: stringOf(a.get(rl.labelReason)),
      annotator: stringOf(a.get(rl.labelAnnotator)),
    });
    return [{ label, index: integerOf(a.get(rl.labelIndex)) ?? Number.MAX_SAFE_INTEGER, order }];
  });
  found.sort((x, y) => x.index - y.index || x.order - y.order);
  return found.length > 0 ? found.map((f) => f.label) : undefined;
}

/** `rl.credit` events (written by the exporter) as rows, kept in metadata. */
function creditRows(view: TraceView): Record<string, unknown>[] {
  return eventsNamed(view, rl.creditEvent).flatMap(({ event }) => {
    const a = event.attributes;
    const row = definedOnly({
      method: stringOf(a.get(rl.creditMethod)),
      agent: idText(a.get(genAi.agentName)),
      value: numberOf(a.get(rl.value)),
      stderr: numberOf(a.get(rl.creditStderr)),
      message: integerOf(a.get(rl.messageIndex)),
    });
    return row.method !== undefined && row.value !== undefined ? [row] : [];
  });
}

/** A JSON-text `rl.*` field, kept only when the canonical decoder accepts it. */
type JsonFieldName = 'routing' | 'counterfactuals' | 'coalitions' | 'metadata';

function jsonField<K extends JsonFieldName>(view: TraceView, key: string, field: K): Episode[K] | undefined {
  const text = stringOf(view.attr(key));
  if (text === undefined) return undefined;
  try {
    // The decoder normalises in place, so it checks a second parse of the text.
    const value = JSON.parse(text) as Episode[K];
    return decodeEpisode({ id: 'probe', messages: [], [field]: JSON.parse(text) as unknown }).ok ? value : undefined;
  } catch {
    return undefined;
  }
}

function finalAnswer(view: TraceView): FinalAnswer | undefined {
  const answer = stringOf(view.attr(rl.finalAnswer));
  if (answer !== undefined) return definedOnly({ answer, agent: idText(view.attr(rl.finalAgent)) });
  const output = spanOutputs(view.root)[0];
  return output ? definedOnly({ answer: output.content, agent: view.agentOf(view.root) }) : undefined;
}

function metadata(view: TraceView): Record<string, unknown> | undefined {
  const logged = jsonField(view, rl.metadata, 'metadata');
  const credit = creditRows(view);
  const base = isRecord(logged) ? { ...logged } : {};
  return credit.length > 0 ? { ...base, credit } : isRecord(logged) ? base : undefined;
}

/** One trace (its spans, non-empty) → one episode; `seed` is the run manifest's roster. */
export function otelEpisode(spans: readonly OtelSpan[], seed: readonly AgentDecl[]): Episode {
  const view = new TraceView(spans);
  const produced = producedMessages(view);
  return definedOnly<Episode>({
    id: idText(view.attr(rl.episodeId)) ?? idText(view.root.attributes.get(genAi.conversationId)) ?? view.root.traceId,
    step: integerOf(view.attr(rl.step)),
    group: idText(view.attr(rl.group)),
    sample: integerOf(view.attr(rl.sample)),
    task: idText(view.attr(rl.task)),
    split: stringOf(view.attr(rl.split)),
    prompt: spanPrompt(view.root) ?? view.spans.map(spanPrompt).find((p) => p !== undefined),
    agents: roster(view, produced, seed),
    messages: produced.map((p) => p.message),
    final: finalAnswer(view),
    ...rewards(view),
    advantages: advantages(view),
    routing: jsonField(view, rl.routing, 'routing'),
    counterfactuals: jsonField(view, rl.counterfactuals, 'counterfactuals'),
    coalitions: jsonField(view, rl.coalitions, 'coalitions'),
    groundTruth: jsonText(view.attr(rl.groundTruth)),
    labels: labels(view, produced),
    metadata: metadata(view),
  });
}

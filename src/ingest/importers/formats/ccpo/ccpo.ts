import type { AgentDecl, CoalitionValue, Counterfactual, Episode, Message } from '../../../../core/episode';
import { ok } from '../../../../core/result';
import type { DetectionSample, FormatMapper, RecordContext } from '../../types';
import { agentDecl, rosterName, trainedLlm } from '../common/rlAgents';
import { ccpoSections, hasCcpoMarkers, type CcpoSections } from './rlCcpoSections';
import { definedFields, metricsAndFields, scoreOf, shareOf } from '../common/rlFields';
import { isVerlShaped, readVerlRecord, verlIdentity, type VerlRecord } from '../common/rlVerlRecord';

/**
 * CCPO / SEPO Thinker–Solver validation dumps (trace-formats.md §2.2, §6; credit-methods.md §3.11):
 * verl lines whose `output` holds `[Thinker]`, `[Solver joint]` (SEPO: `[Solver]`) and
 * `[Solver solo]` sections. The Thinker's thought and the Solver's joint answer are the episode's
 * messages; the solo answer (the Solver re-run on the problem alone) is the logged counterfactual
 * "Thinker removed", so leave-one-out and Shapley credit need no evaluator:
 *
 * - `reward` = `joint_reward` (else `reward`, else `score`) = v({thinker, solver});
 * - `counterfactuals` = `[{intervention: 'remove', agents: [thinker], reward: solo_reward, replayed: true}]`;
 * - `coalitions`: v({thinker, solver}) = joint, v({solver}) = solo, and v({thinker}) = v(∅) = the
 *   reward of an unanswered problem, because without the Solver nobody answers: −1 on CCPO's ±1
 *   scale (0 when the line's rewards are on a 0/1 scale, i.e. one of them is 0). These two are
 *   derived, not logged; `metadata.unansweredReward` records the value used;
 * - `agentRewards` = `counterfactual_r1` (Thinker, shaped) and `counterfactual_r2` (Solver);
 * - `final` = the verifier's `pred` when logged, else the joint answer, by the Solver.
 *
 * Agent names are `thinker` and `solver`, or the run roster's names that match them ignoring case
 * (`Thinker`, `Solver`).
 */
export const ccpoMapper: FormatMapper = {
  format: 'ccpo',
  label: 'CCPO / SEPO Thinker–Solver dump (verl)',
  containers: ['jsonl'],
  detect: detectCcpo,
  toEpisodes: (record, context) => {
    const read = readVerlRecord(record, context.fileName);
    if (!read.ok) return read;
    const sections = ccpoSections(read.value.output);
    return sections.ok ? ok([ccpoEpisode(read.value, sections.value, context)]) : sections;
  },
};

/** 0.97 × the share of records that are verl-shaped with CCPO markers (above plain verl's 0.9). */
function detectCcpo(sample: DetectionSample): number {
  if (sample.container !== 'jsonl') return 0;
  return 0.97 * shareOf(sample.records, (r) => isVerlShaped(r) && hasCcpoMarkers(r));
}

interface CcpoRewards {
  readonly joint?: number;
  readonly solo?: number;
  readonly unanswered: number;
}

function ccpoRewards(v: VerlRecord): CcpoRewards {
  const joint = scoreOf(v.extras['joint_reward']) ?? scoreOf(v.extras['reward']) ?? v.score;
  const solo = scoreOf(v.extras['solo_reward']);
  return { joint, solo, unanswered: joint === 0 || solo === 0 ? 0 : -1 };
}

function ccpoEpisode(v: VerlRecord, sections: CcpoSections, context: RecordContext): Episode {
  const thinker = rosterName('thinker', context.roster) ?? 'thinker';
  const solver = rosterName('solver', context.roster) ?? 'solver';
  const rewards = ccpoRewards(v);
  const pred = v.extras['pred'];
  const messages: Message[] = [
    { agent: thinker, role: 'assistant', content: sections.thought },
    { agent: solver, role: 'assistant', channel: 'final', content: sections.joint },
  ];
  return definedFields({
    ...verlIdentity(v, context),
    agents: [
      roleDecl(thinker, 'Thinker: writes a thought for the Solver', context.roster),
      roleDecl(solver, 'Solver: answers the problem', context.roster),
    ],
    messages,
    final: { answer: typeof pred === 'string' ? pred : sections.joint, agent: solver },
    reward: rewards.joint,
    agentRewards: agentRewards(v, thinker, solver),
    counterfactuals: rewards.solo === undefined ? undefined : [soloCounterfactual(thinker, rewards.solo)],
    coalitions: coalitions(thinker, solver, rewards),
    metadata: definedFields({
      ...metricsAndFields(v.extras),
      soloAnswer: sections.solo,
      unansweredReward: rewards.unanswered,
    }),
  });
}

function roleDecl(name: string, description: string, roster: readonly AgentDecl[]): AgentDecl {
  return agentDecl(name, roster, { ...trainedLlm, description });
}

/** The solo run: the Solver re-run on the problem alone, i.e. the Thinker removed and the Solver replayed. */
function soloCounterfactual(thinker: string, solo: number): Counterfactual {
  return { intervention: 'remove', agents: [thinker], reward: solo, replayed: true };
}

function coalitions(thinker: string, solver: string, rewards: CcpoRewards): CoalitionValue[] | undefined {
  const values: CoalitionValue[] = [];
  if (rewards.joint !== undefined) values.push({ agents: [thinker, solver], value: rewards.joint });
  if (rewards.solo !== undefined) values.push({ agents: [solver], value: rewards.solo });
  if (values.length === 0) return undefined;
  values.push({ agents: [thinker], value: rewards.unanswered }, { agents: [], value: rewards.unanswered });
  return values;
}

function agentRewards(v: VerlRecord, thinker: string, solver: string): Record<string, number> | undefined {
  const r1 = scoreOf(v.extras['counterfactual_r1']);
  const r2 = scoreOf(v.extras['counterfactual_r2']);
  const out: Record<string, number> = {};
  if (r1 !== undefined) out[thinker] = r1;
  if (r2 !== undefined) out[solver] = r2;
  return Object.keys(out).length > 0 ? out : undefined;
}

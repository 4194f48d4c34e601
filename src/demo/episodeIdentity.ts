/** The identity fields every demo episode shares: ids, step, GRPO group, task and prompt. */
export interface EpisodeIdentity {
  readonly id: string;
  readonly step: number;
  readonly group: string;
  readonly sample: number;
  readonly task: string;
  readonly split: 'train';
  readonly prompt: string;
}

/**
 * Ids of rollout `sample` of group `group` at training step `step`: the group is `s<step>-g<group>`
 * (one GRPO group per prompt and step) and the task numbers problems across the whole run.
 */
export function episodeIdentity(
  step: number,
  group: number,
  sample: number,
  groupsPerStep: number,
  prompt: string,
): EpisodeIdentity {
  const groupId = `s${step}-g${group}`;
  return {
    id: `${groupId}-r${sample}`,
    step,
    group: groupId,
    sample,
    task: `gsm-${String((step - 1) * groupsPerStep + group).padStart(5, '0')}`,
    split: 'train',
    prompt,
  };
}

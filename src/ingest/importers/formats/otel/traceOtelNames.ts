// Attribute and event names of the OpenTelemetry mapping, shared by the importer and the exporter
// (docs/otel.md). `gen_ai.*` names are the GenAI semantic conventions v1.41.0 (trace-formats.md
// §4); `rl.*` names are Credit Lens's own, for what the conventions do not cover.

/** GenAI semantic-convention names read and written. */
export const genAi = {
  operation: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolResult: 'gen_ai.tool.call.result',
  outputTokens: 'gen_ai.usage.output_tokens',
  evaluationEvent: 'gen_ai.evaluation.result',
  evaluationName: 'gen_ai.evaluation.name',
  scoreValue: 'gen_ai.evaluation.score.value',
  scoreLabel: 'gen_ai.evaluation.score.label',
} as const;

/** Credit Lens `rl.*` names (docs/otel.md §2). */
export const rl = {
  episodeId: 'rl.episode.id',
  step: 'rl.step',
  group: 'rl.group',
  sample: 'rl.sample',
  task: 'rl.task',
  split: 'rl.split',
  reward: 'rl.reward',
  groundTruth: 'rl.ground_truth',
  finalAnswer: 'rl.final.answer',
  finalAgent: 'rl.final.agent',
  routing: 'rl.routing',
  counterfactuals: 'rl.counterfactuals',
  coalitions: 'rl.coalitions',
  metadata: 'rl.metadata',
  agentsDeclared: 'rl.agents.declared',
  agentKind: 'rl.agent.kind',
  agentPolicy: 'rl.agent.policy',
  agentTrainable: 'rl.agent.trainable',
  agentSystemPrompt: 'rl.agent.system_prompt',
  agentDefaultAction: 'rl.agent.default_action',
  messageIndex: 'rl.message.index',
  messageRole: 'rl.message.role',
  messageChannel: 'rl.message.channel',
  messageTurn: 'rl.message.turn',
  messageTokens: 'rl.message.tokens',
  messageLogprobs: 'rl.message.logprobs',
  messageAttribution: 'rl.message.attribution',
  labelEvent: 'rl.label',
  labelIndex: 'rl.label.index',
  labelKind: 'rl.label.kind',
  labelValue: 'rl.label.value',
  labelReason: 'rl.label.reason',
  labelAnnotator: 'rl.label.annotator',
  advantageEvent: 'rl.advantage',
  creditEvent: 'rl.credit',
  creditMethod: 'rl.credit.method',
  creditStderr: 'rl.credit.stderr',
  value: 'rl.value',
} as const;

/** The evaluation names the exporter writes for the team reward and per-agent rewards. */
export const evaluationNames = { team: 'reward', agent: 'agent_reward' } as const;

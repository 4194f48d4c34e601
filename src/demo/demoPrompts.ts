/**
 * The system prompts of the demo's agents, written in the rosters of the demo runs. The demo's
 * model server (demoAgents.ts) tells the agents apart by them, so one served model can play them
 * all, as a team with shared weights does.
 */
export const demoSystemPrompts = {
  planner:
    'You are the planner. Break the arithmetic word problem into numbered steps, one operation each. Do not compute the answer.',
  solver:
    'You are the solver. Carry out the plan one step a line, showing each equation, and end with the answer as #### N.',
  verifier:
    'You are the verifier. Recompute every step of the solution; if one is wrong, say which and correct it. End with the final answer as #### N.',
  fast: 'You are the fast expert. Answer the arithmetic word problem in one line of equations, ending with #### N.',
  careful: 'You are the careful expert. Solve the arithmetic word problem step by step, ending with #### N.',
} as const;

/** A demo agent's role. */
export type DemoRole = keyof typeof demoSystemPrompts;

/** The verifier's declared default action: a content-free approval, which states no answer (so the solver's stands). */
export const verifierDefaultAction = 'APPROVE';

/** The role whose system prompt is `prompt`, else the role a model id ends with (`qwen2.5-1.5b-lora-solver`), else undefined. */
export function demoRoleOf(prompt: string | undefined, model: string): DemoRole | undefined {
  const roles = Object.keys(demoSystemPrompts) as DemoRole[];
  const byPrompt = roles.find((role) => demoSystemPrompts[role] === prompt?.trim());
  return byPrompt ?? roles.find((role) => model === role || model.endsWith(`-${role}`));
}

import { err, type Result } from '../../core/result';
import { agentCreditTool } from './agentCredit';
import { explainFlagTool } from './explainFlag';
import { findEpisodesTool } from './findEpisodes';
import { listRunsTool } from './listRuns';
import { readEpisodeTool } from './readEpisode';
import { recomputeCreditTool } from './recomputeCredit';
import type { ToolIndex } from './toolIndex';
import { validateInput } from './toolInput';
import type { CreditLensTool, ToolValue } from './toolTypes';

/** Every tool, read-only first (docs/agent-tools.md lists them). */
export const creditLensTools: readonly CreditLensTool[] = [
  listRunsTool,
  agentCreditTool,
  findEpisodesTool,
  readEpisodeTool,
  explainFlagTool,
  recomputeCreditTool,
];

/** The tools a front end offers: the read-only ones, and the mutating ones only when computing is allowed. */
export function availableTools(options: { readonly allowCompute: boolean }): CreditLensTool[] {
  return creditLensTools.filter((t) => options.allowCompute || !t.mutating);
}

/**
 * Runs tool `name` of `tools` on `input`: an unknown (or not offered) tool, input that fails the
 * tool's schema, and anything the tool throws come back as an error result with a message for
 * the model; nothing throws.
 */
export async function invokeTool(
  tools: readonly CreditLensTool[],
  index: ToolIndex,
  name: string,
  input: unknown,
): Promise<Result<ToolValue>> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const hidden = creditLensTools.some((t) => t.name === name && t.mutating);
    return err(
      hidden
        ? `${name} computes and is not offered here (read-only: start \`credit-lens mcp\` with --allow-compute, or trust the workspace)`
        : `no tool "${name}"; tools: ${tools.map((t) => t.name).join(', ')}`,
    );
  }
  const valid = validateInput(tool.inputSchema, input);
  if (!valid.ok) return err(`${name}: ${valid.error}`);
  try {
    return await tool.run(index, valid.value);
  } catch (error) {
    return err(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// The one tool layer behind both front ends of docs/agent-tools.md: the VS Code language-model tools
// (src/extension/lmTools/) and `credit-lens mcp` (src/cli/commands/mcpCommand.ts). No vscode here.

import type { Result } from '../../core/result';
import type { JsonSchema } from './toolInput';
import type { ToolIndex } from './toolIndex';

/** A tool's JSON result: plain JSON, small enough for a model's context (paged, strings capped). */
export type ToolValue = Readonly<Record<string, unknown>>;

/** One tool, as both front ends register it. */
export interface CreditLensTool {
  /** snake_case, unique (`list_runs`); VS Code prefixes it `creditLens_`. */
  readonly name: string;
  /** A short human title. */
  readonly title: string;
  /** What it answers, for the model choosing a tool. */
  readonly description: string;
  /** A hand-written JSON Schema object of its input; the input is checked against it before `run`. */
  readonly inputSchema: JsonSchema;
  /** True when it writes to the index or runs an evaluator or a replay: offered only when allowed, after a confirmation. */
  readonly mutating: boolean;
  /** Runs on validated input (an object that matches `inputSchema`); bad data is an error result, never a throw. */
  readonly run: (index: ToolIndex, input: Readonly<Record<string, unknown>>) => Promise<Result<ToolValue>>;
}

/** The default page size of every paged tool, and the largest page a caller may ask. */
export const defaultPageSize = 20;
export const maxPageSize = 50;
/** The longest string a result carries unless a tool says otherwise (message text has its own cap). */
export const maxResultChars = 500;

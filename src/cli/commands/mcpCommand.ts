import { statSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openToolIndex } from '../../engine/tools/toolIndex';
import { availableTools, invokeTool } from '../../engine/tools/toolSet';
import type { CreditLensTool } from '../../engine/tools/toolTypes';
import { exitCodes, type CliIo } from '../cliIo';

export interface McpCommandOptions {
  readonly root: string;
  readonly db?: string;
  /** Offer the tools that compute (they write the index and run the built-in checker). */
  readonly allowCompute: boolean;
}

/** What the server says it is in the MCP handshake. */
const serverInfo = { name: 'credit-lens', version: '0.1.0' };

/**
 * `credit-lens mcp <run-dir>`: the tool layer (src/engine/tools, docs/agent-tools.md) served over
 * the Model Context Protocol on stdin/stdout until the client closes it. Read-only unless
 * `allowCompute`; every path a tool is given must lie inside the run folder. stdout carries only
 * the protocol: what the server has to say goes to stderr. Resolves to the exit code.
 */
export async function mcpCommand(options: McpCommandOptions, io: CliIo): Promise<number> {
  if (!isDirectory(options.root)) {
    io.err(`credit-lens: ${options.root} is not a folder`);
    return exitCodes.fatal;
  }
  const opened = openToolIndex(options.root, options.db);
  if (!opened.ok) {
    io.err(`credit-lens: ${opened.error}`);
    return exitCodes.fatal;
  }
  const index = opened.value;
  const tools = availableTools({ allowCompute: options.allowCompute });
  const server = new McpServer(serverInfo, { capabilities: { tools: {} } });
  // The tools carry hand-written JSON Schemas (not zod), so they are served by the protocol handlers.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describe) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const result = await invokeTool(tools, index, request.params.name, request.params.arguments ?? {});
    return result.ok
      ? { content: [{ type: 'text', text: JSON.stringify(result.value) }] }
      : { content: [{ type: 'text', text: result.error }], isError: true };
  });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  // The SDK's transport does not close when its input ends: the client went away, so stop.
  process.stdin.once('end', () => void server.close());
  io.err(
    `credit-lens mcp: serving ${tools.length} tools on ${index.root} (${options.allowCompute ? 'computing allowed' : 'read-only'})`,
  );
  await closed;
  index.close();
  return exitCodes.ok;
}

function describe(tool: CreditLensTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title: tool.title, readOnlyHint: !tool.mutating, destructiveHint: false, openWorldHint: false },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

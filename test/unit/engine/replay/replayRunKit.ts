// Shared by the replay evaluator's engine and CLI tests: the done-when fixture indexed in a fresh
// folder, the echo agents (or the demo's) on a local server, and credit passes that collect rows.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatRequest } from '../../../../src/core/chat';
import { runCreditJob, type CreditJobHooks, type CreditJobOptions } from '../../../../src/engine/credit/creditJob';
import type { EvaluatorChoice } from '../../../../src/engine/credit/chooseEvaluator';
import { startAgentServer } from '../../../../src/engine/evaluators/replay/localAgentServer';
import type { LocalChatServer, LocalChatServerOptions } from '../../../../src/engine/evaluators/replay/localChatServer';
import { parseReplayOptions } from '../../../../src/engine/evaluators/replay/replayOptions';
import { runIndexJob } from '../../../../src/engine/indexJob';
import type { CreditOutputRow } from '../../../../src/store/creditRepository';
import { tempFolder } from '../../../builders/episodeBuilder';
import { playEchoPipeline } from '../../../fixtures/replay/echoPipelineAgents';

export const echoFixture = join(__dirname, '../../../fixtures/replay/two-agent-echo');

/**
 * The two-agent-echo run copied to a fresh folder and indexed. `withoutLineRosters`: every line's
 * own `agents` removed, so the roster (system prompts, policies) comes only from run.json.
 */
export async function echoRun(options: { withoutLineRosters?: boolean; manifest?: object } = {}): Promise<string> {
  const root = join(tempFolder(), 'two-agent-echo');
  cpSync(echoFixture, root, { recursive: true });
  if (options.withoutLineRosters)
    for (const file of readdirSync(join(root, 'rollouts'))) {
      const path = join(root, 'rollouts', file);
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      const stripped = lines.map((line) => {
        const { agents: _agents, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(rest);
      });
      writeFileSync(path, `${stripped.join('\n')}\n`);
    }
  if (options.manifest) {
    const manifest = JSON.parse(readFileSync(join(root, 'run.json'), 'utf8')) as object;
    writeFileSync(join(root, 'run.json'), JSON.stringify({ ...manifest, ...options.manifest }));
  }
  await runIndexJob({ root, search: false });
  return root;
}

/** Runs `fn` against a local server playing `agent` (the echo pipeline by default), always closing it. */
export async function withAgents<T>(
  fn: (server: LocalChatServer) => Promise<T>,
  options: Omit<LocalChatServerOptions, 'reply'> & { agent?: (request: ChatRequest) => string } = {},
): Promise<T> {
  const server = await startAgentServer({ agent: playEchoPipeline, ...options });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** The replay choice of `--evaluator replay:url=<url>,…settings`. */
export function replay(url: string, settings: Record<string, string> = {}): EvaluatorChoice {
  const parsed = parseReplayOptions({ url, ...settings });
  if (!parsed.ok) throw new Error(parsed.error);
  return { kind: 'replay', options: parsed.value };
}

/** A fast client for fault tests: short backoff, few retries. */
export const fastClient = { clientOptions: { retries: 2, backoff: { baseMs: 5, maxMs: 20 } } } as const;

/** A credit pass that also returns its stored agent-level rows. */
export async function creditRows(options: CreditJobOptions, hooks: CreditJobHooks = {}) {
  const rows: CreditOutputRow[] = [];
  const result = await runCreditJob(options, {
    ...hooks,
    onRunStored: (_r, stored) => rows.push(...[...stored].filter((r) => r.message_seq === null)),
  });
  return { rows, result, run: result.runs[0] };
}

/** The rows of one agent, by episode external id. */
export function byEpisode(rows: readonly CreditOutputRow[], agent: string): Map<string, CreditOutputRow> {
  return new Map(rows.filter((r) => r.agent === agent).map((r) => [r.external_id, r]));
}

// The e2e step of the language-model tools (test/e2e/extension.e2e.ts r): the test-only probe extension
// (test/e2e/lmToolsProbe, installed by scripts/e2e/run.mjs) asks the free-rider question through
// vscode.lm.invokeTool, without a model, and this step reads the answers it wrote.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor, type CodeServer } from './workbench';

interface ToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly value: Readonly<Record<string, unknown>>;
}

interface ProbeAnswer {
  readonly tools: readonly string[];
  readonly calls: readonly ToolCall[];
  readonly error?: string;
}

/** r. Through the tools alone: the verifier free-rides from the flag's first step, and one of its episodes reads back. */
export async function lmToolsAnswer(cs: CodeServer): Promise<void> {
  const file = join(cs.workspace, 'lm-tools-answer.json');
  rmSync(file, { force: true });
  // The tools read the current run folder; the real runs indexed by tests l–q were current last.
  await cs.runCommand('View: Close All Editors');
  await cs.chooseRunFolder('demo-run');
  await cs.runCommand('Ask the Credit Lens Tools (e2e probe)');
  await waitFor(() => existsSync(file), 60_000, "the probe's lm-tools-answer.json");
  const answer = JSON.parse(readFileSync(file, 'utf8')) as ProbeAnswer;
  assert.equal(answer.error, undefined, answer.error);
  for (const name of ['list_runs', 'get_agent_credit', 'find_episodes', 'read_episode', 'explain_flag'])
    assert.ok(answer.tools.includes(`creditLens_${name}`), `vscode.lm.tools lists creditLens_${name}`);
  const [runs, explained, found, read] = answer.calls.map((c) => c.value);
  assert.equal(runs?.['folder'], join(cs.workspace, 'demo-run'), 'list_runs read the current run folder');
  assert.equal(explained?.['agent'], 'verifier');
  assert.equal(explained?.['kind'], 'free-rider');
  const steps = explained?.['steps'] as { from: number; to: number };
  const team = (runs?.['runs'] as { run: string; steps: { max: number } }[]).find(
    (r) => r.run === 'planner-solver-verifier',
  );
  assert.ok(steps.from > 1 && steps.to === team?.steps.max, `free-rider over ${JSON.stringify(steps)}: the late steps`);
  assert.match((explained?.['location'] as { file: string }).file, /^planner-solver-verifier\/rollouts\//);
  const [episode] = found?.['episodes'] as { episodeId: number; step: number }[];
  assert.ok(episode && episode.step >= steps.from && episode.step <= steps.to, 'the episode is in the flagged steps');
  assert.ok(Number(found?.['total']) > 1, 'find_episodes counts every episode the flag covers');
  const verifier = (read?.['agents'] as { agent: string; credit: { source: string; status: string } | null }[]).find(
    (a) => a.agent === 'verifier',
  );
  assert.ok(
    verifier?.credit && verifier.credit.source !== '' && verifier.credit.status !== '',
    'credit with provenance',
  );
  const messages = (read?.['messages'] as { items: { agent: string }[] }).items;
  assert.ok(
    messages.some((m) => m.agent === 'verifier'),
    "the verifier's messages are read back",
  );
}

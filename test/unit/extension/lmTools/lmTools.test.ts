import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { creditLensTools } from '../../../../src/engine/tools/toolSet';
import { lmToolNames, registerLmTools, type LmToolsDeps } from '../../../../src/extension/lmTools/lmTools';
import { tempFolder } from '../../../builders/episodeBuilder';
import { fake, FakeLogOutputChannel, type LanguageModelToolResult } from '../../fakes/vscode';
import { sharedDemo } from '../../engine/tools/toolDemo';

interface ContributedTool {
  name: string;
  toolReferenceName: string;
  displayName: string;
  modelDescription: string;
  canBeReferencedInPrompt: boolean;
  inputSchema: unknown;
  when?: string;
}
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { languageModelTools: ContributedTool[] };
};

beforeEach(() => {
  fake.reset();
});

function deps(folder: string | undefined): LmToolsDeps {
  const log = new FakeLogOutputChannel('Credit Lens', { log: true }) as unknown as vscode.LogOutputChannel;
  return { currentFolder: () => (folder ? vscode.Uri.file(folder) : undefined), indexPath: () => undefined, log };
}

async function invoke(name: string, input: object): Promise<Record<string, unknown>> {
  const result = (await vscode.lm.invokeTool(name, {
    input,
    toolInvocationToken: undefined,
  })) as unknown as LanguageModelToolResult;
  return JSON.parse(result.content[0]?.value ?? 'null') as Record<string, unknown>;
}

test('package.json contributes every tool of the tool layer with its schema, a reference name and an activation event', () => {
  const contributed = manifest.contributes.languageModelTools;
  assert.deepEqual(
    contributed.map((t) => t.name),
    lmToolNames,
  );
  for (const tool of creditLensTools) {
    const entry = contributed.find((t) => t.name === `creditLens_${tool.name}`);
    assert.deepEqual(entry?.inputSchema, tool.inputSchema, tool.name);
    assert.equal(entry?.modelDescription, tool.description);
    assert.equal(entry?.canBeReferencedInPrompt, true);
    assert.match(entry?.toolReferenceName ?? '', /^creditLens[A-Z]\w+$/);
    assert.equal(entry?.when, tool.mutating ? 'isWorkspaceTrusted' : undefined);
    assert.ok(manifest.activationEvents.includes(`onLanguageModelTool:creditLens_${tool.name}`));
  }
  assert.equal(new Set(contributed.map((t) => t.toolReferenceName)).size, contributed.length);
});

test('registerLmTools in a trusted workspace registers every tool; the compute tool asks for a confirmation', () => {
  const disposable = registerLmTools(deps(undefined));
  assert.deepEqual([...fake.lmTools.keys()], lmToolNames);
  const compute = fake.lmTools.get('creditLens_recompute_credit');
  const prepared = compute?.prepareInvocation?.({ input: {} }, {}) as { confirmationMessages?: { title: string } };
  assert.equal(prepared.confirmationMessages?.title, 'Credit Lens: Recompute credit');
  const read = fake.lmTools.get('creditLens_list_runs')?.prepareInvocation?.({ input: {} }, {}) as Record<
    string,
    unknown
  >;
  assert.equal(read['confirmationMessages'], undefined);
  disposable.dispose();
  assert.equal(fake.lmTools.size, 0);
});

test('registerLmTools in Restricted Mode registers only the read-only tools, and adds the others once trusted', () => {
  fake.isTrusted = false;
  const disposable = registerLmTools(deps(undefined));
  assert.deepEqual(
    [...fake.lmTools.keys()],
    lmToolNames.filter((n) => n !== 'creditLens_recompute_credit'),
  );
  fake.isTrusted = true;
  fake.trustGranted.fire();
  assert.ok(fake.lmTools.has('creditLens_recompute_credit'));
  disposable.dispose();
});

test('the adapters answer the free-rider question on the current run folder, and say when there is none', async () => {
  const disposable = registerLmTools(deps(await sharedDemo()));
  const runs = await invoke('creditLens_list_runs', {});
  const team = (runs['runs'] as Record<string, unknown>[]).find((r) => r['run'] === 'planner-solver-verifier');
  const flags = (team?.['audit'] as { flags: { flagId: number; kind: string; agent: string }[] }).flags;
  const flag = flags.find((f) => f.kind === 'free-rider');
  assert.equal(flag?.agent, 'verifier');
  const explained = await invoke('creditLens_explain_flag', { flagId: flag?.flagId });
  assert.deepEqual(explained['steps'], { from: 25, to: 40 });
  const found = await invoke('creditLens_find_episodes', {
    run: 'planner-solver-verifier',
    flagId: flag?.flagId,
    limit: 1,
  });
  const [episode] = found['episodes'] as { episodeId: number; step: number }[];
  assert.ok((episode?.step ?? 0) >= 25);
  const read = await invoke('creditLens_read_episode', { episodeId: episode?.episodeId });
  assert.equal(read['episodeId'], episode?.episodeId);
  assert.match(
    String((await invoke('creditLens_read_episode', { file: '../x', line: 1 }))['error']),
    /outside the run folder/,
  );
  disposable.dispose();
  registerLmTools(deps(undefined));
  assert.match(String((await invoke('creditLens_list_runs', {}))['error']), /no run folder is indexed yet/);
  fake.reset();
  registerLmTools(deps(tempFolder()));
  assert.match(String((await invoke('creditLens_list_runs', {}))['error']), /has no Credit Lens index yet/);
});

test('the compute adapter refuses in Restricted Mode even if it was registered while trusted', async () => {
  registerLmTools(deps(await sharedDemo()));
  fake.isTrusted = false;
  const result = await invoke('creditLens_recompute_credit', { run: 'routed-experts', method: 'routing' });
  assert.match(String(result['error']), /Restricted Mode/);
});

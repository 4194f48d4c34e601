import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { commandIds } from '../../../src/extension/commandIds';
import { activate } from '../../../src/extension/extension';
import { chosenFolderKey, indexGlob } from '../../../src/extension/runFolders';
import type { RunsNode, RunsTreeProvider } from '../../../src/extension/tree/runsTreeProvider';
import { openDatabase } from '../../../src/store/database';
import { IndexSchemaError, schemaVersion, schemaVersionOf } from '../../../src/store/migrate';
import { episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { revertTo11 } from '../store/demoIndex';
import { FakeMemento, fakeExtensionContext, until } from '../fakes/extensionContext';
import { fake, Uri } from '../fakes/vscode';

// The extension as activate() builds it, over a real workspace on disk: where it finds indexes, which
// folder each command acts on, and that it never builds a second index at the workspace root.

const workerBuilt = existsSync(join(__dirname, '..', '..', '..', 'dist', 'indexWorker.js'));
const skipWithoutWorker = !workerBuilt && 'build dist/indexWorker.js first (node esbuild.mjs)';
let contexts: vscode.ExtensionContext[] = [];

beforeEach(() => {
  fake.reset();
});

afterEach(() => {
  for (const context of contexts) for (const d of context.subscriptions) d.dispose();
  contexts = [];
});

/** A workspace folder with a trace in each sub-folder (`a`, `runs/exp1`, ...), indexed where asked. */
async function workspace(folders: readonly string[], indexedFolders: readonly string[] = []): Promise<string> {
  const root = tempFolder('credit-lens-ws-');
  for (const folder of folders) {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, 'rollouts.jsonl'), jsonl(...episodes(0, 4)));
  }
  for (const folder of indexedFolders) await runIndexJob({ root: join(root, folder), search: false });
  return root;
}

/** Activates the extension on `root`; resolves once the workspace search has been answered. */
async function activateIn(root: string, state = new FakeMemento()): Promise<vscode.ExtensionContext> {
  fake.setWorkspaceFolders([root]);
  const context = fakeExtensionContext(undefined, state);
  contexts.push(context);
  activate(context);
  await until(() => fake.findFilesCalls.length > 0, 'the index search');
  await new Promise((resolve) => setImmediate(resolve));
  return context;
}

const run = (id: string, ...args: unknown[]): Promise<unknown> => fake.commands.get(id)!(...args) as Promise<unknown>;
const runsTree = (): RunsTreeProvider =>
  fake.treeViews.find((v) => v.viewId === 'creditLens.runs')!.options.treeDataProvider as RunsTreeProvider;
const labels = (nodes: readonly RunsNode[]): string[] =>
  nodes.map((node) => runsTree().getTreeItem(node).label as string);
const progressTitles = (): string[] => fake.progress.map((p) => p.options.title ?? '');
const pickLabels = (index = 0): string[] =>
  (fake.quickPicks[index]?.items as { label: string }[]).map((item) => item.label);
const noIndexMessages = (): string[] =>
  fake.messages.map((m) => m.text).filter((text) => /no Credit Lens index/.test(text));

test('an index the CLI wrote in a sub-folder is found; Run Audit and the Dashboard use it and build no index at the root', async () => {
  const root = await workspace(['demo-run', 'node_modules/pkg'], ['demo-run', 'node_modules/pkg']);
  await activateIn(root);
  assert.deepEqual(fake.findFilesCalls[0], {
    include: indexGlob,
    exclude: '{**/node_modules/**,**/.git/**}',
    maxResults: 50,
  });
  const top = runsTree().getChildren();
  assert.deepEqual(
    [top.map((node) => node.kind), labels(top)],
    [['run'], ['demo-run']],
    'the Runs view shows the runs of the sub-folder index (its root run is named after it)',
  );

  await run(commandIds.runAudit);
  assert.deepEqual(progressTitles(), ['Credit Lens: auditing demo-run']);
  await run(commandIds.openDashboard);
  assert.equal(fake.panels[0]?.title, 'Run Dashboard: demo-run');
  assert.equal(fake.quickPicks.length, 0, 'one index: nothing to ask');
  assert.deepEqual(noIndexMessages(), []);
  assert.equal(existsSync(join(root, '.credit-lens')), false, 'no second index at the workspace root');
});

test(
  'Explorer → Index Run Folder on a sub-folder, then Run Audit from the palette acts on that folder',
  { skip: skipWithoutWorker },
  async () => {
    const root = await workspace(['a', 'b']);
    const state = new FakeMemento();
    await activateIn(root, state);
    await run(commandIds.indexRunFolder, Uri.file(join(root, 'a')));
    assert.equal(existsSync(join(root, 'a', '.credit-lens', 'index.sqlite')), true);
    assert.equal(state.get(chosenFolderKey), join(root, 'a'), 'the indexed folder is remembered per workspace');

    await run(commandIds.runAudit);
    assert.deepEqual(progressTitles(), ['Credit Lens: indexing a', 'Credit Lens: auditing a']);
    assert.equal(fake.quickPicks.length, 0);
    assert.deepEqual(noIndexMessages(), []);
    for (const folder of ['.credit-lens', 'b/.credit-lens'])
      assert.equal(existsSync(join(root, folder)), false, folder);
  },
);

test('two indexes and no choice: a command asks which (with runs and episodes), then every command keeps to it', async () => {
  const root = await workspace(['a', 'b'], ['a', 'b']);
  const state = new FakeMemento();
  await activateIn(root, state);
  assert.deepEqual(labels(runsTree().getChildren()), ['a', 'b'], 'the Runs view lists both folders');
  fake.answerQuickPick = (items) => (items as { label: string }[]).find((item) => item.label.endsWith(' b'));
  await run(commandIds.runAudit);
  assert.deepEqual(pickLabels(), ['$(folder) a', '$(folder) b', '$(folder-opened) Browse…']);
  assert.deepEqual(
    (fake.quickPicks[0]?.items as { description?: string }[]).slice(0, 2).map((item) => item.description),
    ['1 run (a) · 4 episodes', '1 run (b) · 4 episodes'],
  );
  await run(commandIds.openDashboard);
  assert.equal(fake.quickPicks.length, 1, 'the choice is kept');
  assert.deepEqual(progressTitles(), ['Credit Lens: auditing b']);
  assert.equal(fake.panels[0]?.title, 'Run Dashboard: b');

  // The choice outlives a reload (workspaceState); a click on a folder in the Runs view changes it.
  for (const d of contexts.splice(0).flatMap((context) => context.subscriptions)) d.dispose();
  fake.reset();
  await activateIn(root, state);
  const [folderA] = runsTree().getChildren();
  assert.equal(runsTree().getTreeItem(folderA!).description, '', 'a is listed, not current');
  await run(commandIds.runAudit);
  assert.deepEqual(progressTitles(), ['Credit Lens: auditing b']);
  fake.treeViews.find((v) => v.viewId === 'creditLens.runs')!.select(folderA);
  await run(commandIds.runAudit);
  assert.deepEqual(progressTitles(), ['Credit Lens: auditing b', 'Credit Lens: auditing a']);
  assert.equal(runsTree().getTreeItem(runsTree().getChildren()[0]!).description, 'current');
  assert.equal(fake.quickPicks.length, 0);
});

test(
  'no index anywhere: a command says so and offers the run folders found and the root; the chosen one is indexed',
  { skip: skipWithoutWorker },
  async () => {
    const root = await workspace(['runs/exp1', 'data', 'node_modules/pkg', '.venv/lib']);
    writeFileSync(
      join(root, 'runs', 'exp1', 'run.json'),
      JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'exp1' }),
    );
    await activateIn(root);
    assert.deepEqual(
      runsTree()
        .getChildren()
        .map((node) => node.kind),
      ['message', 'message'],
    );
    fake.answerMessage = (message) => (message.items.includes('Index Run Folder…') ? 'Index Run Folder…' : undefined);
    fake.answerQuickPick = (items) => (items as { label: string }[]).find((item) => item.label.endsWith(' runs/exp1'));
    await run(commandIds.runAudit);
    assert.equal(fake.messages[0]?.text, 'No Credit Lens index in this workspace yet: index a run folder first.');
    assert.deepEqual(pickLabels(), [
      '$(folder) data',
      '$(folder) runs',
      '$(folder) runs/exp1',
      `$(folder) ${basename(root)}`,
      '$(folder-opened) Browse…',
    ]);
    assert.deepEqual(
      progressTitles(),
      ['Credit Lens: indexing runs/exp1'],
      'the folder chosen is indexed; the audit waits for the next run',
    );
    assert.equal(existsSync(join(root, 'runs', 'exp1', '.credit-lens', 'index.sqlite')), true);
    assert.equal(existsSync(join(root, '.credit-lens')), false);

    await run(commandIds.runAudit);
    assert.deepEqual(progressTitles(), ['Credit Lens: indexing runs/exp1', 'Credit Lens: auditing runs/exp1']);
  },
);

test('an index appearing later is found through the file watcher', async () => {
  const root = await workspace(['late']);
  await activateIn(root);
  assert.deepEqual(
    runsTree()
      .getChildren()
      .map((node) => node.kind),
    ['message', 'message'],
  );
  await runIndexJob({ root: join(root, 'late'), search: false });
  const watcher = fake.watchers.find((w) => w.pattern === indexGlob);
  assert.deepEqual(watcher?.ignores, { create: false, change: true, delete: false }, 'index writes are not searches');
  watcher?.fire('create', Uri.file(join(root, 'late', '.credit-lens', 'index.sqlite')));
  await until(() => labels(runsTree().getChildren()).includes('late'), 'the late index in the Runs view');
  await run(commandIds.openDashboard);
  assert.equal(fake.panels[0]?.title, 'Run Dashboard: late');
});

test(
  'an index an older Credit Lens wrote is upgraded as soon as the views find it, then shown (it read as "no index yet")',
  { skip: skipWithoutWorker },
  async () => {
    const root = await workspace(['old'], ['old']);
    const indexFile = join(root, 'old', '.credit-lens', 'index.sqlite');
    const writer = openDatabase(indexFile);
    revertTo11(writer); // schema 11: no flag_episode table, which the Runs view reads
    writer.close();

    await activateIn(root);
    assert.deepEqual(
      labels(runsTree().getChildren()).slice(0, 1),
      ['Upgrading the index an older Credit Lens wrote (one indexing pass)…'],
      'the view says what is happening, not that there is no index',
    );
    await until(() => labels(runsTree().getChildren()).includes('old'), 'the upgraded index in the Runs view');
    const reader = openDatabase(indexFile, { readonly: true }); // refused below the current schema
    assert.equal(schemaVersionOf(reader), schemaVersion);
    assert.equal(reader.prepare<{ n: number }>('SELECT count(*) AS n FROM episode').get()?.n, 4);
    reader.close();
    assert.deepEqual(noIndexMessages(), []);
  },
);

test(
  'a listed folder whose index an older Credit Lens wrote is upgraded when the Runs view expands it',
  { skip: skipWithoutWorker },
  async () => {
    const root = await workspace(['current', 'old'], ['current', 'old']);
    const state = new FakeMemento();
    await state.update(chosenFolderKey, join(root, 'current'));
    const writer = openDatabase(join(root, 'old', '.credit-lens', 'index.sqlite'));
    revertTo11(writer);
    writer.close();

    await activateIn(root, state);
    const folderNode = (): RunsNode => runsTree().getChildren()[1]!;
    assert.deepEqual(labels(runsTree().getChildren()), ['current', 'old']);
    assert.deepEqual(labels(runsTree().getChildren(folderNode())), [
      'Upgrading the index an older Credit Lens wrote (one indexing pass)…',
    ]);
    await until(() => labels(runsTree().getChildren(folderNode())).includes('old'), "the old folder's run").catch(
      (e: unknown) => {
        console.log('LABELS', labels(runsTree().getChildren(folderNode())));
        throw e;
      },
    );
    assert.equal(state.get(chosenFolderKey), join(root, 'current'), 'the upgrade did not change the current folder');
  },
);

test('an index a newer Credit Lens wrote is never touched: the views say to upgrade Credit Lens', async () => {
  const root = await workspace(['new'], ['new']);
  const indexFile = join(root, 'new', '.credit-lens', 'index.sqlite');
  const writer = openDatabase(indexFile);
  writer.pragma(`user_version = ${schemaVersion + 1}`);
  writer.close();

  await activateIn(root);
  const [message] = labels(runsTree().getChildren());
  assert.match(
    message ?? '',
    /^Cannot open the Credit Lens index: index schema version \d+ is newer than this Credit Lens understands/,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.throws(
    () => openDatabase(indexFile, { readonly: true }),
    (error: unknown) => error instanceof IndexSchemaError && error.version === schemaVersion + 1,
    'no pass migrated or rewrote it',
  );
});

import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import { commandIds } from '../../../src/extension/commandIds';
import { activate, deactivate } from '../../../src/extension/extension';
import { fakeExtensionContext } from '../fakes/extensionContext';
import { fake } from '../fakes/vscode';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus?: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const contributed = manifest.contributes.commands.map((c) => c.command).sort();

beforeEach(() => {
  fake.reset();
});

test('activate() registers exactly the commands that package.json contributes', () => {
  activate(fakeExtensionContext());
  assert.deepEqual([...fake.commands.keys()].sort(), contributed);
  assert.deepEqual(Object.values(commandIds).sort(), contributed);
});

test('activate() hands every disposable to context.subscriptions', () => {
  const context = fakeExtensionContext();
  activate(context);
  const [channel] = fake.channels;
  assert.equal(fake.channels.length, 1);
  assert.equal(channel?.name, 'Credit Lens');
  assert.deepEqual(channel?.options, { log: true });
  assert.ok(
    context.subscriptions.some((d) => d === channel),
    'the log channel is owned',
  );
  // Every command registration, the channel, the job tracker, the five panel owners, their five
  // serializers, the active index, the run folders, their change listener, the views, background indexing,
  // the settings and trust listeners that refresh the Episode view, the language-model tools, and the
  // provider of the read-only reports.
  assert.equal(context.subscriptions.length, contributed.length + 23);
  assert.ok(fake.contentProviders.has('credit-lens-report'), 'the report documents are provided');
  assert.equal(fake.lmTools.size, 6, 'the language-model tools are registered');
  assert.deepEqual([...fake.serializers.keys()].sort(), [
    'creditLens.compare',
    'creditLens.dashboard',
    'creditLens.episode',
    'creditLens.episodeDiff',
    'creditLens.group',
    'creditLens.runSummary',
  ]);
  // VS Code revives a panel only if the extension activates for its view type before the serializer is asked.
  for (const viewType of fake.serializers.keys())
    assert.ok(manifest.activationEvents?.includes(`onWebviewPanel:${viewType}`), `activates on ${viewType}`);
  assert.equal(fake.treeViews.length, 2, 'the Runs and Flags views are created');
  for (const disposable of context.subscriptions) disposable.dispose();
  assert.equal(fake.commands.size, 0, 'disposing the subscriptions unregisters every command');
  assert.ok(
    fake.treeViews.every((view) => view.disposed),
    'disposing the subscriptions disposes the views',
  );
  assert.ok(
    fake.watchers.length > 0 && fake.watchers.every((watcher) => watcher.disposed),
    'disposing the subscriptions disposes the index watcher',
  );
  assert.equal(channel?.disposed, true);
  assert.equal(fake.serializers.size, 0, 'disposing the subscriptions unregisters the serializers');
  assert.equal(fake.lmTools.size, 0, 'disposing the subscriptions unregisters the language-model tools');
  deactivate();
});

test('package.json keeps activation lazy and contributes the commands under "Credit Lens"', () => {
  const events = manifest.activationEvents ?? [];
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), `eager activation: ${events.join(', ')}`);
  for (const command of manifest.contributes.commands) assert.equal(command.category, 'Credit Lens', command.command);
  const explorer = manifest.contributes.menus?.['explorer/context'] ?? [];
  assert.deepEqual(
    explorer.filter((item) => item.command === commandIds.indexRunFolder).map((item) => item.when),
    ['explorerResourceIsFolder'],
  );
});

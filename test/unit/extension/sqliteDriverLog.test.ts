import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activate } from '../../../src/extension/extension';
import { fakeExtensionContext } from '../fakes/extensionContext';
import { fake } from '../fakes/vscode';

// As test/unit/store/sqliteDriver.test.ts: node:sqlite in the Node 22 and 24 runs of scripts/testStoreOnNode.mjs.
const expectedDriver = process.env['CREDIT_LENS_EXPECT_SQLITE_DRIVER'] ?? 'better-sqlite3';

test('activate() logs which SQLite driver serves the indexes, with the runtime', () => {
  fake.reset();
  const context = fakeExtensionContext();
  activate(context);
  const lines = fake.channels[0]?.lines ?? [];
  assert.ok(
    lines.includes(
      `[info] SQLite driver: ${expectedDriver} (Node ${process.version}, ABI ${process.versions.modules})`,
    ),
    lines.join('\n'),
  );
  for (const disposable of context.subscriptions) disposable.dispose();
});

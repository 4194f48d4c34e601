import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// Proves that eslint.config.mjs enforces the import rules between layers (house-style §5): each
// snippet is linted as if it were a file in the named folder. The files do not exist, so type
// information is switched off (the import rules do not need it; the project service would reject
// files that are not on disk).

const root = join(__dirname, '..', '..', '..');
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: join(root, 'eslint.config.mjs'),
  overrideConfig: [tseslint.configs.disableTypeChecked],
});

/** The messages of the import rules for `code` as the file `path` (relative to the repo root). */
async function importErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: join(root, path) });
  assert.ok(result, `no lint result for ${path}`);
  return result.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

async function assertBanned(path: string, code: string, message: RegExp): Promise<void> {
  const errors = await importErrors(path, code);
  assert.ok(
    errors.some((e) => message.test(e)),
    `${path}: expected an error matching ${String(message)} for \`${code}\`, got ${JSON.stringify(errors)}`,
  );
}

async function assertAllowed(path: string, code: string): Promise<void> {
  assert.deepEqual(await importErrors(path, code), [], `${path}: \`${code}\` should be allowed`);
}

const sqlite = `import Database from 'better-sqlite3';\nexport const db = new Database(':memory:');`;
const vscodeImport = `import * as vscode from 'vscode';\nexport const uri = vscode.Uri;`;
const nodeFs = `import { readFileSync } from 'node:fs';\nexport const read = readFileSync;`;

test('better-sqlite3 may be imported only in src/store', async () => {
  await assertAllowed('src/store/probe.ts', sqlite);
  for (const path of [
    'src/ingest/probe.ts',
    'src/engine/probe.ts',
    'src/cli/probe.ts',
    'src/extension/probe.ts',
    'src/core/probe.ts',
  ]) {
    await assertBanned(path, sqlite, /must not import better-sqlite3/);
  }
});

test('vscode may be imported only in src/extension', async () => {
  await assertAllowed('src/extension/probe.ts', vscodeImport);
  for (const path of [
    'src/core/probe.ts',
    'src/ingest/probe.ts',
    'src/store/probe.ts',
    'src/engine/probe.ts',
    'src/cli/probe.ts',
    'src/protocol/probe.ts',
    'webview/src/probe.ts',
  ]) {
    await assertBanned(path, vscodeImport, /must not import vscode|talk to the host/);
  }
});

test('Node built-ins are banned in core, credit, protocol and the webview, allowed in ingest', async () => {
  for (const path of ['src/core/probe.ts', 'src/credit/probe.ts', 'src/protocol/probe.ts', 'webview/src/probe.ts']) {
    await assertBanned(path, nodeFs, /must not import Node built-ins/);
  }
  await assertBanned(
    'src/core/probe.ts',
    `import { join } from 'path';\nexport const j = join;`,
    /Node built-in 'path'/,
  );
  await assertAllowed('src/ingest/probe.ts', nodeFs);
  await assertAllowed('src/store/probe.ts', nodeFs);
});

test('core imports nothing outside core; credit imports only core', async () => {
  await assertBanned(
    'src/core/probe.ts',
    `import { IndexStore } from '../store/indexStore';\nexport const s = IndexStore;`,
    /src\/core must not import src\/store/,
  );
  await assertAllowed('src/core/probe.ts', `import { ok } from './result';\nexport const o = ok;`);
  await assertBanned(
    'src/credit/probe.ts',
    `import { indexRunFolder } from '../ingest/indexRunFolder';\nexport const i = indexRunFolder;`,
    /src\/credit must not import src\/ingest/,
  );
  await assertAllowed('src/credit/probe.ts', `import { ok } from '../core/result';\nexport const o = ok;`);
});

test('the engine imports protocol for types only (the view DTOs it builds)', async () => {
  await assertAllowed(
    'src/engine/probe.ts',
    `import type { RunOverview } from '../protocol/dashboardPanel';\nexport type O = RunOverview;`,
  );
  await assertBanned(
    'src/engine/probe.ts',
    `import { GetOverviewRequest } from '../protocol/dashboardPanel';\nexport const r = GetOverviewRequest;`,
    /types only/,
  );
});

test('protocol and the webview import core for types only', async () => {
  await assertAllowed(
    'src/protocol/probe.ts',
    `import type { IndexSummary } from '../core/indexSummary';\nexport type S = IndexSummary;`,
  );
  await assertBanned(
    'src/protocol/probe.ts',
    `import { formatIssue } from '../core/indexSummary';\nexport const f = formatIssue;`,
    /types only/,
  );
  await assertAllowed(
    'webview/src/probe.ts',
    `import type { IndexSummary } from '../../src/core/indexSummary';\nexport type S = IndexSummary;`,
  );
  await assertBanned(
    'webview/src/probe.ts',
    `import { formatIssue } from '../../src/core/indexSummary';\nexport const f = formatIssue;`,
    /types only/,
  );
  await assertAllowed(
    'webview/src/probe.ts',
    `import { isIpcMessage } from '../../src/protocol/ipc';\nexport const i = isIpcMessage;`,
  );
  await assertBanned(
    'webview/src/probe.ts',
    `import { IndexStore } from '../../src/store/indexStore';\nexport const s = IndexStore;`,
    /only src\/protocol is shared/,
  );
});

test('ingest, store, demo and engine keep to their layers', async () => {
  await assertBanned(
    'src/ingest/probe.ts',
    `import { IndexStore } from '../store/indexStore';\nexport const s = IndexStore;`,
    /src\/ingest must not import src\/store/,
  );
  await assertBanned(
    'src/ingest/canonical/probe.ts',
    `import { runIndexJob } from '../../engine/indexJob';\nexport const r = runIndexJob;`,
    /src\/ingest must not import src\/engine/,
  );
  await assertBanned(
    'src/store/probe.ts',
    `import { indexFile } from '../ingest/indexFile';\nexport const i = indexFile;`,
    /src\/store must not import src\/ingest/,
  );
  await assertBanned(
    'src/demo/probe.ts',
    `import { IndexStore } from '../store/indexStore';\nexport const s = IndexStore;`,
    /src\/demo must not import src\/store/,
  );
  await assertAllowed(
    'src/engine/probe.ts',
    `import { indexRunFolder } from '../ingest/indexRunFolder';\nimport { IndexStore } from '../store/indexStore';\nexport const x = [indexRunFolder, IndexStore];`,
  );
  await assertBanned(
    'src/engine/probe.ts',
    `import { activate } from '../extension/extension';\nexport const a = activate;`,
    /src\/engine must not import src\/extension/,
  );
});

test('the CLI and the extension do not import each other', async () => {
  await assertBanned(
    'src/cli/probe.ts',
    `import { activate } from '../extension/extension';\nexport const a = activate;`,
    /src\/cli must not import src\/extension/,
  );
  await assertBanned(
    'src/extension/probe.ts',
    `import { main } from '../cli/main';\nexport const m = main;`,
    /src\/extension must not import src\/cli/,
  );
  await assertAllowed(
    'src/extension/probe.ts',
    `import { runIndexJob } from '../engine/indexJob';\nexport const r = runIndexJob;`,
  );
});

test('react, test/ imports and default exports are banned everywhere in product code', async () => {
  await assertBanned(
    'src/extension/probe.ts',
    `import React from 'react';\nexport const r = React;`,
    /react is not part of the product/,
  );
  await assertBanned(
    'webview/src/probe.ts',
    `import { render } from 'react-dom';\nexport const r = render;`,
    /react-dom is not part of the product/,
  );
  await assertBanned(
    'src/engine/probe.ts',
    `import { episode } from '../../test/builders/episodeBuilder';\nexport const e = episode;`,
    /must not import from test\//,
  );
  await assertBanned('src/core/probe.ts', 'export default 1;', /named exports/);
});

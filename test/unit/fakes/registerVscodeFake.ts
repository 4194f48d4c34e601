import Module from 'node:module';
import { join } from 'node:path';

// Makes `require('vscode')` (and so `import * as vscode from 'vscode'` in src/extension, which tsx
// compiles to CommonJS) load test/unit/fakes/vscode.ts. Import this module first in a test file,
// before anything that imports `vscode`. Node 20's `module.register` hooks do not reach `require`,
// so the CommonJS resolver is patched instead (docs/architecture.md §8.2).

interface Resolver {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

const resolver = Module as unknown as Resolver;
const fakePath = join(__dirname, 'vscode.ts');
const original = resolver._resolveFilename.bind(resolver);

if (!(globalThis as { creditLensVscodeFake?: boolean }).creditLensVscodeFake) {
  (globalThis as { creditLensVscodeFake?: boolean }).creditLensVscodeFake = true;
  resolver._resolveFilename = (request, parent, isMain, options) =>
    request === 'vscode' ? fakePath : original(request, parent, isMain, options);
}

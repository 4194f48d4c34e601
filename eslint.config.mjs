// Lint for Credit Lens: typescript-eslint strict (type-checked where a tsconfig covers the file) plus
// the import rules between layers of docs/architecture.md §1, one `no-restricted-imports` override per folder.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Layers under src/ that a layer rule may forbid. */
const layers = ['core', 'credit', 'ingest', 'store', 'engine', 'demo', 'protocol', 'extension', 'cli'];

const nodeBuiltins = [...new Set(builtinModules.map((name) => name.replace(/^node:/, '')))];

/** Matches a relative import of `layer` from any depth below src/ (`../store/x`, `../../store`). */
const layerRegex = (layer) => `^(\\.\\./)+(src/)?${layer}(/|$)`;

const ban = {
  layer: (from, layer, why) => ({ regex: layerRegex(layer), message: `${from} must not import src/${layer}: ${why}` }),
  vscode: (from) => ({
    name: 'vscode',
    message: `${from} must not import vscode: only src/extension talks to VS Code (docs/architecture.md §1).`,
  }),
  sqlite: (from) => ({
    name: 'better-sqlite3',
    message: `${from} must not import better-sqlite3: SQLite is reached only through src/store (docs/architecture.md §2).`,
  }),
  nodeBuiltins: (from) => [
    {
      regex: '^node:',
      message: `${from} must not import Node built-ins: it runs without I/O (docs/architecture.md §1).`,
    },
    ...nodeBuiltins.map((name) => ({
      regex: `^${name}(/|$)`,
      message: `${from} must not import the Node built-in '${name}': it runs without I/O (docs/architecture.md §1).`,
    })),
  ],
};

/** Bans that hold everywhere in src/ and webview/. */
const everywhere = {
  paths: [
    { name: 'react', message: 'react is not part of the product (docs/architecture.md §1); use DOM APIs.' },
    { name: 'react-dom', message: 'react-dom is not part of the product (docs/architecture.md §1); use DOM APIs.' },
  ],
  patterns: [
    { regex: '^react(-dom)?/', message: 'react is not part of the product (docs/architecture.md §1).' },
    { regex: '^(\\.\\./)+test(/|$)', message: 'Product code must not import from test/.' },
  ],
};

/**
 * One layer's `@typescript-eslint/no-restricted-imports` options. Rule options do not merge across
 * flat-config objects, so each layer repeats the bans that hold everywhere.
 */
function layerRule({ paths = [], patterns = [] }) {
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { paths: [...everywhere.paths, ...paths], patterns: [...everywhere.patterns, ...patterns] },
    ],
  };
}

/** Bans every src/ layer not in `allowed`, with one reason. */
function otherLayers(from, allowed, why) {
  return layers.filter((layer) => !allowed.includes(layer)).map((layer) => ban.layer(from, layer, why));
}

const layerRules = [
  {
    files: ['src/**/*.ts'],
    rules: layerRule({ paths: [ban.sqlite('src/ (outside src/store)')] }),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/core'), ban.sqlite('src/core')],
      patterns: [
        ...otherLayers('src/core', ['core'], 'core is the domain and depends on nothing.'),
        ...ban.nodeBuiltins('src/core'),
      ],
    }),
  },
  {
    files: ['src/credit/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/credit'), ban.sqlite('src/credit')],
      patterns: [
        ...otherLayers('src/credit', ['core', 'credit'], 'credit algorithms are pure functions over core types.'),
        ...ban.nodeBuiltins('src/credit'),
      ],
    }),
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/protocol'), ban.sqlite('src/protocol')],
      patterns: [
        {
          regex: layerRegex('core'),
          allowTypeImports: true,
          message: 'src/protocol may import core for types only (use `import type`); the webview bundles protocol.',
        },
        ...otherLayers('src/protocol', ['core', 'protocol'], 'the webview contract is shared with the webview bundle.'),
        ...ban.nodeBuiltins('src/protocol'),
      ],
    }),
  },
  {
    files: ['src/ingest/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/ingest'), ban.sqlite('src/ingest')],
      patterns: otherLayers(
        'src/ingest',
        ['core', 'ingest'],
        'importers yield core records; the engine wires them to the store.',
      ),
    }),
  },
  {
    files: ['src/store/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/store')],
      patterns: otherLayers(
        'src/store',
        ['core', 'store'],
        'the store persists core records and knows no other layer.',
      ),
    }),
  },
  {
    files: ['src/demo/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/demo'), ban.sqlite('src/demo')],
      patterns: otherLayers('src/demo', ['core', 'demo'], 'the demo writes trace files from core types only.'),
    }),
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/engine'), ban.sqlite('src/engine')],
      patterns: [
        ...otherLayers(
          'src/engine',
          ['core', 'ingest', 'store', 'credit', 'demo', 'engine', 'protocol'],
          'the engine is shared by the CLI and the extension and must not depend on either.',
        ),
        {
          regex: layerRegex('protocol'),
          allowTypeImports: true,
          message: 'src/engine may import src/protocol for types only (the view DTOs it builds); use `import type`.',
        },
      ],
    }),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: layerRule({
      paths: [ban.vscode('src/cli'), ban.sqlite('src/cli')],
      patterns: [ban.layer('src/cli', 'extension', 'the CLI runs without VS Code.')],
    }),
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: layerRule({
      paths: [ban.sqlite('src/extension')],
      patterns: [ban.layer('src/extension', 'cli', 'share code through src/engine instead.')],
    }),
  },
  {
    files: ['webview/src/**/*.ts'],
    rules: layerRule({
      paths: [
        {
          name: 'vscode',
          message: 'The webview runs in a browser frame: talk to the host through webview/src/ipc.ts.',
        },
        ban.sqlite('webview/src'),
      ],
      patterns: [
        {
          // Except the pure text formatters, shared so a count or a time reads alike in every view.
          regex: '^(\\.\\./)+src/core(/(?!(plural|timestamp)$)|$)',
          allowTypeImports: true,
          message:
            'webview/src may import src/core for types only (use `import type`; plural and timestamp excepted); data comes from the host.',
        },
        ...layers
          .filter((layer) => layer !== 'core' && layer !== 'protocol')
          .map((layer) => ({
            regex: `^(\\.\\./)+src/${layer}(/|$)`,
            message: `webview/src must not import src/${layer}: only src/protocol is shared with the webview.`,
          })),
        ...ban.nodeBuiltins('webview/src'),
      ],
    }),
  },
];

/** Rules of docs/architecture.md §7 that typescript-eslint's presets do not set. */
const houseRules = {
  'no-restricted-syntax': [
    'error',
    { selector: 'ExportDefaultDeclaration', message: 'Use named exports (docs/architecture.md §7).' },
    {
      selector: 'ExportNamedDeclaration > ExportSpecifier[exported.name="default"]',
      message: 'Use named exports (docs/architecture.md §7).',
    },
  ],
  '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
  '@typescript-eslint/no-explicit-any': 'error',
  'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
  'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
  // Numbers in templates are the common, safe case (`${file}:${line}`).
  '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
  // Style choices of strictTypeChecked that docs/architecture.md §7 does not make: `() => post(x)` callbacks,
  // `boolean | void` callback results and deleting keys in small object builders are fine here.
  '@typescript-eslint/no-confusing-void-expression': [
    'error',
    { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true },
  ],
  '@typescript-eslint/no-invalid-void-type': 'off',
  '@typescript-eslint/no-dynamic-delete': 'off',
};

const testFiles = ['test/**/*.ts'];
const nodeGlobals = {
  console: 'readonly',
  process: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  fetch: 'readonly',
  AbortSignal: 'readonly',
};

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'dist-vsix/**',
      'node_modules/**',
      'bench-data/**',
      'demo-run/**',
      '.cache/**',
      '.credit-lens/**',
      'out/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: houseRules,
  },
  ...layerRules,
  {
    // One way to start and end a worker thread: its heap cap, and an exit that cannot abort Node 20.
    files: ['src/**/*.ts'],
    ignores: ['src/ingest/workerThread.ts'],
    rules: {
      'no-restricted-syntax': [
        ...houseRules['no-restricted-syntax'],
        {
          selector: 'NewExpression[callee.name="Worker"]',
          message: 'Start worker threads with startWorker (src/ingest/workerThread.ts).',
        },
        {
          selector: 'CallExpression[callee.property.name="terminate"]',
          message: 'End worker threads with endWorker (src/ingest/workerThread.ts).',
        },
      ],
    },
  },
  {
    files: testFiles,
    rules: {
      // node:test's describe/it return promises that the runner tracks itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // Tests read JSON output and narrow on purpose; `any` still may not be written explicitly.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      'max-lines-per-function': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
    rules: { 'no-restricted-syntax': houseRules['no-restricted-syntax'] },
  },
  {
    // No "type" in package.json: plain .js files are CommonJS.
    files: ['**/*.cjs', '**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        ...nodeGlobals,
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
  },
  {
    // The harness's stand-in for acquireVsCodeApi runs in the page.
    files: ['test/browser/harness/shim.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', sessionStorage: 'readonly' } },
  },
  {
    // Flat config itself must be a default export.
    files: ['eslint.config.mjs'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);

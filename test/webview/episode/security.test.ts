// A review gate of docs/architecture.md §4.2 as a test: the Episode, diff and Compare views' sources never build markup from
// strings and never write inline style attributes or <style> elements (CSSOM only).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const views = join(import.meta.dirname, '..', '..', '..', 'webview', 'src');
const forbidden: [RegExp, string][] = [
  [/\.(inner|outer)HTML\b/, 'innerHTML / outerHTML'],
  [/insertAdjacentHTML|createContextualFragment|DOMParser/, 'HTML parsing'],
  [/document\.write/, 'document.write'],
  [/setAttribute\(\s*['"]style['"]/, "setAttribute('style')"],
  [/createElement\(\s*['"]style['"]/, '<style> elements'],
  [/\beval\(|new Function\(/, 'eval'],
  [/@vscode\/webview-ui-toolkit/, 'the toolkit outside components/toolkit.ts'],
];

for (const [view, least] of [
  ['episode', 10],
  ['diff', 6],
  ['compare', 8],
] as const)
  test(`the ${view} view sets text and styles only through the DOM and the CSSOM`, () => {
    // Subfolders too (the swimlanes live in swimlanes/).
    const dir = join(views, view);
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > least);
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8');
      for (const [pattern, what] of forbidden) assert.doesNotMatch(source, pattern, `${file} uses ${what}`);
    }
  });

// A review gate of docs/architecture.md §4.2 as a test: the Episode view's sources never build markup from
// strings and never write inline style attributes or <style> elements (CSSOM only).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const dir = join(import.meta.dirname, '..', '..', '..', 'webview', 'src', 'episode');
const forbidden: [RegExp, string][] = [
  [/\.(inner|outer)HTML\b/, 'innerHTML / outerHTML'],
  [/insertAdjacentHTML|createContextualFragment|DOMParser/, 'HTML parsing'],
  [/document\.write/, 'document.write'],
  [/setAttribute\(\s*['"]style['"]/, "setAttribute('style')"],
  [/createElement\(\s*['"]style['"]/, '<style> elements'],
  [/\beval\(|new Function\(/, 'eval'],
  [/@vscode\/webview-ui-toolkit/, 'the toolkit outside components/toolkit.ts'],
];

test('the Episode view sets text and styles only through the DOM and the CSSOM', () => {
  // Subfolders too (the swimlanes live in swimlanes/).
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 10);
  for (const file of files) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const [pattern, what] of forbidden) assert.doesNotMatch(source, pattern, `${file} uses ${what}`);
  }
});

test('the Compare view sets text and styles only through the DOM and the CSSOM', () => {
  const compare = join(dir, '..', 'compare');
  const files = readdirSync(compare).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 8);
  for (const file of files) {
    const source = readFileSync(join(compare, file), 'utf8');
    for (const [pattern, what] of forbidden) assert.doesNotMatch(source, pattern, `compare/${file} uses ${what}`);
  }
});

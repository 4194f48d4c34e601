import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { citationProblem, citationsIn, headingsOf, machinePathsIn, resolveDocument, sourceFiles } from './docCitations';

// Every document the code, the tests and the docs cite is in the repository, with the cited
// section: a reader can follow "credit-methods.md §3.8" or "docs/architecture.md §4".

const root = join(__dirname, '..', '..', '..');
/** The scanner and its test quote citations as examples. */
const scanner = new Set(['test/unit/docs/citations.test.ts', 'test/unit/docs/docCitations.ts']);
const scanned = [
  'src',
  'webview/src',
  'test',
  'scripts',
  'bench',
  'eslint.config.mjs',
  'docs',
  'README.md',
  'BENCHMARKS.md',
];
const exists = (file: string) => (name: string) => resolveDocument(root, file, name) !== undefined;

describe('document citations', () => {
  test('citationsIn(text) reads documents, sections, ranges, labels, quoted headings and bare hyphenated names', () => {
    const text = [
      '// (see notes-page.md §3.8, §5.2–5.3; other.md)',
      ' * wrapped (guide-page.md',
      ' * §2.1) and docs/some-page.md §4 E15',
      'https://example.org/a/b.md §9 and owner/repo:docs/x.md §1 are not ours; style-guide §12 is',
      'see [a-page.md](a-page.md), "What it scores"',
    ].join('\n');
    const found = citationsIn(text, 'src/x.ts').map((c) =>
      `${c.line} ${c.document} ${c.sections.join(',')} ${c.labels.join(',')} ${c.heading ?? ''}`
        .replace(/ +/g, ' ')
        .trim(),
    );
    assert.deepEqual(found, [
      '1 notes-page.md 3.8,5.2,5.3',
      '1 other.md',
      '2 guide-page.md 2.1',
      '3 docs/some-page.md 4 E15',
      '5 a-page.md What it scores',
      '5 a-page.md',
      '4 style-guide.md 12',
    ]);
  });

  test('headingsOf(markdown) lists numbered headings and labels, and citationProblem names what is missing', () => {
    const { sections, labels } = headingsOf('# Title\n## 3. Signals\n### 3.8 Monte-Carlo\n### E15. GSM8K\nText 4.1\n');
    assert.deepEqual([...sections], ['3', '3.8']);
    assert.deepEqual([...labels], ['E15']);
    const missing = citationProblem(root, {
      file: 'src/x.ts',
      line: 7,
      document: 'no-such-page.md',
      sections: [],
      labels: [],
    });
    assert.equal(missing, 'src/x.ts:7 cites no-such-page.md, which is not in the repository');
    const heading = citationProblem(root, {
      file: 'src/x.ts',
      line: 2,
      document: 'credit-provenance.md',
      sections: [],
      labels: [],
      heading: 'No such part',
    });
    assert.match(heading ?? '', /cites credit-provenance\.md "No such part"/);
    assert.equal(
      citationProblem(root, {
        file: 'src/x.ts',
        line: 3,
        document: 'credit-provenance.md',
        sections: [],
        labels: [],
        heading: 'Calibrating a checker',
      }),
      undefined,
    );
    const section = citationProblem(root, {
      file: 'src/x.ts',
      line: 1,
      document: 'credit-provenance.md',
      sections: ['99.9'],
      labels: [],
    });
    assert.match(
      section ?? '',
      /cites credit-provenance\.md §99\.9, which docs\/credit-provenance\.md has no heading for/,
    );
  });

  test('every cited document is in the repository and has the cited sections', () => {
    const files = sourceFiles(root, scanned).filter((file) => !scanner.has(file));
    assert.ok(files.length > 500, `only ${files.length} files scanned`);
    const problems = files.flatMap((file) =>
      citationsIn(readFileSync(join(root, file), 'utf8'), file, exists(file)).flatMap(
        (citation) => citationProblem(root, citation) ?? [],
      ),
    );
    assert.deepEqual(problems, [], `${problems.length} citation(s) do not resolve`);
  });

  test('no Markdown file names a path on one machine (/work/…, /root/…)', () => {
    const docs = sourceFiles(root, ['.']).filter((file) => file.endsWith('.md'));
    assert.ok(docs.includes('README.md') && docs.includes('docs/credit-methods.md'));
    assert.deepEqual(
      docs.flatMap((file) => machinePathsIn(readFileSync(join(root, file), 'utf8'), file)),
      [],
    );
  });
});

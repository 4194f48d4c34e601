import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Finds the document citations of the repository's sources and docs, and checks each against the
// documents that exist: the cited file must be in the repository, and a cited section (`§3.8`) or
// label (`E15`, `T10`) must be a numbered heading of it (`### 3.8 Title`, `### E15. Title`).

/** One cited document, with the sections and labels cited with it, where it is cited. */
export interface Citation {
  readonly file: string;
  readonly line: number;
  /** As written: `docs/trace-format.md`, `credit-methods.md`, `../README.md`. */
  readonly document: string;
  readonly sections: readonly string[];
  readonly labels: readonly string[];
  /** A heading cited by its words right after the document: `credit-provenance.md, "Verdicts"`. */
  readonly heading?: string;
}

/** A path ending in `.md`, not inside a URL or an `owner/repo:path` / `repo@commit/path` reference. */
const documentPath = /(?<![\w./:@-])((?:\.{1,2}\/|[\w.-]+\/)*[\w.-]+\.md)\b/g;
/** A hyphenated document name written without `.md` but with a section: `house-style §5`. */
const bareName = /(?<![\w./:@-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?=[ \t]?§)/g;
/** A bare document name before a label: `product-targets T1` (counted only when the document exists). */
const bareLabelled = /(?<![\w./:@-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?=[ \t]+(?:oracle[ \t]+)?[ET]\d+[a-z]?\b)/g;
/** Sections after a document name, through comment leaders of wrapped lines: `§3.8, §5.2–5.3`. */
const sectionList = /^[\s*/#]*§[ \t]?(\d+(?:\.\d+)*)((?:[ \t]*(?:,|–|-|and|or)[ \t]*§?[ \t]?\d+(?:\.\d+)*)*)/;
const laterSection = /(\d+(?:\.\d+)*)/g;
/** A label after the document or its sections: `§8 E15`, `oracle E5`, `T10`. */
const labelAfter = /^[ \t]+(?:oracle[ \t]+)?([ET]\d+[a-z]?)\b/;
/** A quoted heading right after the document (or its Markdown link): `x.md, "Calibrating a checker"`. */
const quotedHeading = /^(?:\]\([^)\s]*\))?,?[ \t]+["“]([^"”\n]{3,80})["”]/;

/** Every citation in `text`, a file at `file` (relative to the repository root). */
export function citationsIn(
  text: string,
  file: string,
  documentExists: (name: string) => boolean = () => true,
): Citation[] {
  const found: Citation[] = [];
  const add = (document: string, end: number, start: number): void => {
    const rest = text.slice(end);
    const sections = sectionsAt(rest);
    const afterSections = sections.length > 0 ? rest.slice((sectionList.exec(rest)?.[0] ?? '').length) : rest;
    const label = labelAfter.exec(afterSections)?.[1];
    const heading = sections.length === 0 && label === undefined ? quotedHeading.exec(rest)?.[1] : undefined;
    found.push({
      file,
      line: lineOf(text, start),
      document,
      sections,
      labels: label === undefined ? [] : [label],
      ...(heading === undefined ? {} : { heading }),
    });
  };
  for (const m of text.matchAll(documentPath)) add(m[1] ?? '', m.index + m[0].length, m.index);
  for (const m of text.matchAll(bareName)) add(`${m[1] ?? ''}.md`, m.index + m[0].length, m.index);
  for (const m of text.matchAll(bareLabelled)) {
    const name = `${m[1] ?? ''}.md`;
    if (documentExists(name)) add(name, m.index + m[0].length, m.index);
  }
  return found;
}

function sectionsAt(rest: string): string[] {
  const match = sectionList.exec(rest);
  if (!match) return [];
  return [match[1] ?? '', ...[...(match[2] ?? '').matchAll(laterSection)].map((s) => s[1] ?? '')];
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The numbered headings of a Markdown document: `## 5. Title`, `### 5.2 Title`, `### E13. Title`. */
export function headingsOf(markdown: string): { sections: Set<string>; labels: Set<string>; titles: string[] } {
  const sections = new Set<string>();
  const labels = new Set<string>();
  const titles = [...markdown.matchAll(/^#{1,6}[ \t]+(.+)$/gm)].map((m) => (m[1] ?? '').toLowerCase());
  for (const m of markdown.matchAll(/^#{1,6}[ \t]+§?[ \t]?(\d+(?:\.\d+)*)\.?[ \t]/gm)) sections.add(m[1] ?? '');
  for (const m of markdown.matchAll(/^#{1,6}[ \t]+([A-Z]\d+[a-z]?)\.?[ \t]/gm)) labels.add(m[1] ?? '');
  return { sections, labels, titles };
}

/** Where a cited document is: beside the citing file, at the repository root, or in docs/. */
export function resolveDocument(root: string, citingFile: string, document: string): string | undefined {
  const here = dirname(join(root, citingFile));
  const candidates = document.includes('/')
    ? [resolve(here, document), resolve(root, document)]
    : [join(here, document), join(root, document), join(root, 'docs', document)];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Why a citation does not resolve, or undefined when its document, sections and labels exist. */
export function citationProblem(root: string, citation: Citation): string | undefined {
  const where = `${citation.file}:${citation.line}`;
  const path = resolveDocument(root, citation.file, citation.document);
  if (path === undefined) return `${where} cites ${citation.document}, which is not in the repository`;
  const cited = [
    ...citation.sections.map((s) => `§${s}`),
    ...citation.labels,
    ...(citation.heading === undefined ? [] : [citation.heading]),
  ];
  if (cited.length === 0) return undefined;
  const { sections, labels, titles } = headingsOf(readFileSync(path, 'utf8'));
  const heading = citation.heading?.toLowerCase();
  const missing = [
    ...citation.sections.filter((s) => !sections.has(s)).map((s) => `§${s}`),
    ...citation.labels.filter((l) => !labels.has(l)),
    ...(heading === undefined || titles.some((t) => t.startsWith(heading)) ? [] : [`"${citation.heading ?? ''}"`]),
  ];
  if (missing.length === 0) return undefined;
  return `${where} cites ${citation.document} ${missing.join(', ')}, which ${relative(root, path)} has no heading for`;
}

const sourceExtensions = /\.(?:ts|mjs|cjs|js|md|py|sh)$/;
const skippedFolders = new Set(['node_modules', 'dist', 'dist-vsix', 'bench-data', 'demo-run', 'test-results', '.git']);

/** The files under `paths` (files or folders, relative to `root`) that can hold citations. */
export function sourceFiles(root: string, paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (relativePath: string): void => {
    const full = join(root, relativePath);
    if (!existsSync(full)) return;
    if (statSync(full).isFile()) {
      if (sourceExtensions.test(relativePath)) files.push(relativePath);
      return;
    }
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      if (skippedFolders.has(entry.name)) continue;
      walk(join(relativePath, entry.name));
    }
  };
  paths.forEach(walk);
  return files.sort();
}

/** Absolute paths of one machine: the project's checkouts (`/work/…`) and root's home. */
const machinePath = /(?<![\w.~-])\/(?:work|root)\/[^\s`'")\]]*/g;

/** Every machine path in `text`, as `file:line path`. */
export function machinePathsIn(text: string, file: string): string[] {
  return [...text.matchAll(machinePath)].map((m) => `${file}:${lineOf(text, m.index)} ${m[0]}`);
}

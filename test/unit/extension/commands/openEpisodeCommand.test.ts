import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { pickEpisodeId, type EpisodeChoice, type IdQuickPick } from '../../../../src/extension/commands/episodeIdPick';
import {
  openEpisodeCommand,
  openEpisodeIndex,
  type EpisodeIndexReader,
} from '../../../../src/extension/commands/openEpisodeCommand';
import { openDatabase, type Db } from '../../../../src/store/database';
import { byPrefixSql, EpisodeLookup, type EpisodeSuggestion } from '../../../../src/store/episodeLookup';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';
import { EventEmitter, fake } from '../../fakes/vscode';
import { queryPlan } from '../../store/queryPlan';

const log = (): vscode.LogOutputChannel => vscode.window.createOutputChannel('Credit Lens', { log: true });
const root = vscode.Uri.file('/runs/r');

const suggestion = (externalId: string, extra: Partial<EpisodeSuggestion> = {}): EpisodeSuggestion => ({
  episodeId: 3,
  run: 'psv',
  uri: 'psv/rollouts.jsonl',
  line: 12,
  externalId,
  step: 2,
  group: 'g1',
  reward: 0.5,
  ...extra,
});

/** An index reader answering from fixed lists, recording what it was asked and whether it was closed. */
function reader(byId: EpisodeSuggestion[], byPrefix: EpisodeSuggestion[] = []) {
  const asked: string[] = [];
  let closed = 0;
  const index: EpisodeIndexReader = {
    byExternalId: (id) => (asked.push(id), byId.filter((e) => e.externalId === id)),
    byPrefix: () => byPrefix,
    close: () => {
      closed++;
    },
  };
  return { index, asked, closed: () => closed };
}

beforeEach(() => fake.reset());

test('openEpisode: a suggested episode opens at its trace line without another lookup; the index is closed', async () => {
  const opened: unknown[][] = [];
  vscode.commands.registerCommand('vscode.open', (...args: unknown[]) => opened.push(args));
  const r = reader([], [suggestion('e7')]);
  await openEpisodeCommand({
    log: log(),
    openIndex: () => r.index,
    askId: (suggest) => Promise.resolve({ kind: 'suggested', episode: suggest('e')[0] ?? suggestion('none') }),
  })(root);
  assert.deepEqual(r.asked, []);
  assert.equal((opened[0]?.[0] as vscode.Uri).fsPath, '/runs/r/psv/rollouts.jsonl');
  assert.equal((opened[0]?.[1] as { selection: vscode.Range }).selection.start.line, 11);
  assert.equal(r.closed(), 1);
});

test('openEpisode: a typed id that is not suggested is still looked up and opens in the Episode view', async () => {
  const shown: [string, number][] = [];
  const r = reader([suggestion('e7', { episodeId: 42 })]);
  await openEpisodeCommand({
    log: log(),
    openIndex: () => r.index,
    askId: () => Promise.resolve({ kind: 'typed', id: 'e7' }),
    showEpisode: (folder, episodeId) => shown.push([folder.fsPath, episodeId]),
  })(root);
  assert.deepEqual([r.asked, shown], [['e7'], [['/runs/r', 42]]]);
});

test('openEpisode: an unknown typed id says so, naming the folder relative to the workspace; dismissing says nothing', async () => {
  const ask = (): Promise<EpisodeChoice> => Promise.resolve({ kind: 'typed', id: 'nope' });
  const r = reader([]);
  await openEpisodeCommand({ log: log(), openIndex: () => r.index, askId: ask })(root);
  fake.setWorkspaceFolders(['/runs']);
  await openEpisodeCommand({ log: log(), openIndex: () => r.index, askId: ask })(root);
  await openEpisodeCommand({ log: log(), openIndex: () => r.index, askId: () => Promise.resolve(undefined) })(root);
  assert.deepEqual(
    fake.messages.map((m) => m.text),
    ['No episode with id "nope" in the index of /runs/r.', 'No episode with id "nope" in the index of r.'],
  );
  assert.equal(r.closed(), 3);
});

test('openEpisode: a folder without an index offers to index it before asking for an id', async () => {
  let asked = false;
  await openEpisodeCommand({ log: log(), askId: () => ((asked = true), Promise.resolve(undefined)) })(
    vscode.Uri.file('/nonexistent/credit-lens-folder'),
  );
  assert.equal(fake.messages[0]?.level, 'error');
  assert.deepEqual(fake.messages[0]?.items, ['Index Run Folder']);
  assert.equal(asked, false);
});

type Item = vscode.QuickPickItem & { choice: EpisodeChoice };

/** A quick pick driven by the test: `type` changes the value as a keystroke does. */
class ScriptedPick implements IdQuickPick<Item> {
  title: string | undefined;
  placeholder: string | undefined;
  value = '';
  items: readonly Item[] = [];
  busy = false;
  matchOnDescription = false;
  selectedItems: readonly Item[] = [];
  shown = 0;
  disposed = 0;
  private readonly changed = new EventEmitter<string>();
  private readonly accepted = new EventEmitter<undefined>();
  private readonly hidden = new EventEmitter<undefined>();
  readonly onDidChangeValue = this.changed.event;
  readonly onDidAccept = this.accepted.event as vscode.Event<void>;
  readonly onDidHide = this.hidden.event as vscode.Event<void>;
  type(value: string): void {
    this.value = value;
    this.changed.fire(value);
  }
  accept(label?: string): void {
    this.selectedItems = this.items.filter((i) => i.label === label);
    this.accepted.fire(undefined);
  }
  show(): void {
    this.shown++;
  }
  hide(): void {
    this.hidden.fire(undefined);
  }
  dispose(): void {
    this.disposed++;
  }
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('the id pick suggests as the user types, asking once per pause, typed id first, each with run, step, group and reward', async () => {
  const pick = new ScriptedPick();
  const prefixes: string[] = [];
  const index = [suggestion('s1-g0-r0'), suggestion('s1-g0-r1', { run: '', step: null, group: null, reward: null })];
  const chosen = pickEpisodeId(
    (prefix) => (prefixes.push(prefix), index.filter((e) => e.externalId.startsWith(prefix))),
    {
      title: 'Open',
      debounceMs: 20,
      createPick: () => pick,
    },
  );
  assert.deepEqual([prefixes, pick.shown], [[''], 1], 'filled before the first keystroke');
  for (const value of ['s', 's1', 's1-g0', ' s1-g0-r ']) pick.type(value);
  assert.equal(pick.busy, true);
  await settle(60);
  assert.deepEqual(prefixes, ['', 's1-g0-r'], 'one lookup for the settled text, trimmed');
  assert.deepEqual(
    pick.items.map((i) => [i.label, i.description]),
    [
      ['s1-g0-r', 'open this id'],
      ['s1-g0-r0', 'psv · step 2 · group g1 · reward 0.5'],
      ['s1-g0-r1', '(root) · no step · no reward'],
    ],
  );
  pick.type('s1-g0-r1');
  await settle(60);
  assert.deepEqual(
    pick.items.map((i) => i.label),
    ['s1-g0-r1'],
    'an exact match is not offered twice',
  );
  pick.type('zzz');
  await settle(60);
  assert.deepEqual(
    pick.items.map((i) => [i.label, i.description]),
    [['zzz', 'no id in the index starts with this']],
  );
  pick.type('s1-g0-r');
  await settle(60);
  pick.accept('s1-g0-r0');
  assert.deepEqual(await chosen, { kind: 'suggested', episode: index[0] });
  assert.equal(pick.disposed, 1);
});

test('the id pick returns a typed id with nothing selected or before its lookup, and undefined when hidden; a pending lookup is dropped', async () => {
  const typed = new ScriptedPick();
  const chosen = pickEpisodeId(() => [], { title: 'Open', debounceMs: 20, createPick: () => typed });
  typed.type('  e9 ');
  await settle(60);
  typed.accept();
  assert.deepEqual(await chosen, { kind: 'typed', id: 'e9' });
  const early = new ScriptedPick();
  const first = pickEpisodeId(() => [suggestion('e1')], { title: 'Open', debounceMs: 20, createPick: () => early });
  early.type('e1');
  early.accept('e1');
  assert.deepEqual(
    await first,
    { kind: 'typed', id: 'e1' },
    'Enter before the lookup: the text typed, not an older list',
  );
  const hidden = new ScriptedPick();
  let lookups = 0;
  const dismissed = pickEpisodeId(() => (lookups++, []), { title: 'Open', debounceMs: 20, createPick: () => hidden });
  hidden.type('e');
  hidden.hide();
  assert.equal(await dismissed, undefined);
  await settle(60);
  assert.equal(lookups, 1, 'only the lookup on opening ran');
});

let folder: string;
let db: Db;

before(async () => {
  folder = tempFolder();
  mkdirSync(join(folder, 'run'));
  writeFileSync(
    join(folder, 'run', 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'run' }),
  );
  const ids = [
    ...Array.from({ length: 60 }, (_, i) => `s1-r${String(i)}`),
    's2-r0',
    's%-r0',
    's_x',
    'é-1',
    '<img src=x onerror=alert(1)>',
  ];
  writeFileSync(join(folder, 'run', 'a.jsonl'), jsonl(...ids.map((id, i) => episode(id, { step: i < 60 ? 1 : 2 }))));
  const { index } = await runIndexJob({ root: folder });
  db = openDatabase(index.path, { readonly: true });
});

after(() => db.close());

test('byPrefix() lists at most 50 ids that start with the prefix, by id, from a range of episode_external', () => {
  const lookup = new EpisodeLookup(db);
  const s1 = lookup.byPrefix('s1-');
  assert.equal(s1.length, 50);
  assert.ok(s1.every((e) => e.externalId.startsWith('s1-')));
  assert.deepEqual(
    s1.map((e) => e.externalId),
    [...s1.map((e) => e.externalId)].sort(),
  );
  assert.deepEqual(
    [s1[0]?.run, s1[0]?.step, s1[0]?.group, s1[0]?.reward, s1[0]?.uri, s1[0]?.line],
    ['run', 1, 'g1', 1, 'run/a.jsonl', 1],
  );
  assert.deepEqual(
    lookup.byPrefix('s%').map((e) => e.externalId),
    ['s%-r0'],
    '% and _ are characters, not wildcards',
  );
  assert.deepEqual(
    lookup.byPrefix('s_').map((e) => e.externalId),
    ['s_x'],
  );
  assert.deepEqual(
    lookup.byPrefix('é').map((e) => e.externalId),
    ['é-1'],
  );
  assert.deepEqual(
    lookup.byPrefix('<img').map((e) => e.externalId),
    ['<img src=x onerror=alert(1)>'],
  );
  assert.deepEqual(lookup.byPrefix('nope'), []);
  assert.equal(lookup.byPrefix('', 5).length, 5);
  assert.equal(lookup.byPrefix('', 500).length, 50, 'never more than 50');
  const plan = queryPlan(db, byPrefixSql, { prefix: 's1', limit: 50 });
  assert.ok(
    plan.some((d) => d.startsWith('SEARCH e USING INDEX episode_external (external_id>? AND external_id<?)')),
    plan.join(' | '),
  );
  assert.ok(!plan.some((d) => d.startsWith('USE TEMP B-TREE')), plan.join(' | '));
});

test('openEpisodeIndex() reads the real index of a folder: suggestions and an exact lookup', () => {
  const index = openEpisodeIndex(folder, undefined);
  try {
    assert.equal(index.byPrefix('s2')[0]?.externalId, 's2-r0');
    assert.equal(index.byExternalId('s2-r0').length, 1);
  } finally {
    index.close();
  }
});

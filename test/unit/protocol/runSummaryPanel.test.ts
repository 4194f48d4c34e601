import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeSummaryNotification,
  OpenIssueCommand,
  ReadyCommand,
  isOpenIssueParams,
  isReadyParams,
} from '../../../src/protocol/runSummaryPanel';

test('isReadyParams(value) wants a non-negative integer stateVersion', () => {
  assert.equal(isReadyParams({ stateVersion: 1 }), true);
  for (const bad of [
    null,
    undefined,
    1,
    [],
    {},
    { stateVersion: '1' },
    { stateVersion: -1 },
    { stateVersion: 1.5 },
    { stateVersion: NaN },
  ]) {
    assert.equal(isReadyParams(bad), false, JSON.stringify(bad) ?? 'undefined');
  }
});

test('isOpenIssueParams(value) wants a safe relative file and a line in [0, 2^31)', () => {
  assert.equal(isOpenIssueParams({ file: 'runs/a.jsonl', line: 2 }), true);
  assert.equal(isOpenIssueParams({ file: 'a.jsonl', line: 0 }), true);
  const bad = [
    null,
    { file: 'a.jsonl' },
    { line: 2 },
    { file: '', line: 1 },
    { file: '../secret', line: 1 },
    { file: 'a/../../b', line: 1 },
    { file: '/etc/passwd', line: 1 },
    { file: 'C:/x.jsonl', line: 1 },
    { file: 'a\\..\\b', line: 1 },
    { file: 'a//b', line: 1 },
    { file: 'x'.repeat(5000), line: 1 },
    { file: 'a.jsonl', line: -1 },
    { file: 'a.jsonl', line: 1.5 },
    { file: 'a.jsonl', line: '2' },
    { file: 'a.jsonl', line: 2 ** 31 },
  ];
  for (const value of bad) assert.equal(isOpenIssueParams(value), false, JSON.stringify(value));
});

test('IpcCommand.is(message) checks the method and, through the guard, the params', () => {
  assert.equal(ReadyCommand.is({ method: 'runSummary/ready', params: { stateVersion: 1 } }), true);
  assert.equal(ReadyCommand.is({ method: 'runSummary/ready', params: { stateVersion: 'x' } }), false);
  assert.equal(ReadyCommand.is({ method: 'runSummary/issue/open', params: { stateVersion: 1 } }), false);
  assert.equal(OpenIssueCommand.is({ method: 'runSummary/issue/open', params: { file: '../x', line: 1 } }), false);
});

test('descriptor.with(params, id) builds the message that descriptor.is() recognises', () => {
  const message = DidChangeSummaryNotification.with({
    folderName: 'r',
    folderPath: '/r',
    indexPath: '/r/.credit-lens/index.sqlite',
    cancelled: false,
    summary: {
      files: 0,
      runs: [],
      episodes: 0,
      messages: 0,
      agents: 0,
      steps: 0,
      searchableEpisodes: 0,
      errorCount: 0,
      errors: [],
    },
  });
  assert.equal(message.method, 'runSummary/summary/didChange');
  assert.equal('id' in message, false);
  assert.equal(DidChangeSummaryNotification.is(message), true);
  assert.equal(ReadyCommand.with({ stateVersion: 2 }, 7).id, 7);
});

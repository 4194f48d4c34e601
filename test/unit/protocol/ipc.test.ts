import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  IpcCommand,
  IpcNotification,
  IpcRequest,
  checkedField,
  isIpcMessage,
  isRecord,
  pickFields,
  type IpcMessage,
} from '../../../src/protocol/ipc';
import { isEpisodeRef } from '../../../src/protocol/viewData';

test('isIpcMessage(value) accepts a method with an optional numeric id and nothing else', () => {
  assert.equal(isIpcMessage({ method: 'a/b', params: {} }), true);
  assert.equal(isIpcMessage({ method: 'a/b', params: null, id: 3 }), true);
  assert.equal(
    isIpcMessage({ method: 'a/b', params: {}, extra: 'ignored' }),
    true,
    'extra envelope fields are ignored',
  );
  for (const bad of [null, undefined, 'a/b', 42, [], [{ method: 'a' }], {}, { method: 1 }, { method: 'a', id: '1' }])
    assert.equal(isIpcMessage(bad), false, JSON.stringify(bad));
  for (const id of [Number.NaN, 1.5, Infinity]) assert.equal(isIpcMessage({ method: 'a', id }), false, String(id));
});

test('IpcRequest.is(message) needs the id its response is paired by, the method and params its guard accepts', () => {
  const isQuery = (value: unknown): value is { q: string } => isRecord(value) && typeof value['q'] === 'string';
  const request = new IpcRequest<{ q: string }, number>('test/thing/get', isQuery);
  assert.equal(request.is({ method: 'test/thing/get', params: { q: 'x' }, id: 0 }), true);
  assert.equal(request.is({ method: 'test/thing/get', params: { q: 'x', extra: 1 }, id: 4 }), true, 'extra params');
  const malformed: [string, IpcMessage][] = [
    ['missing id', { method: 'test/thing/get', params: { q: 'x' } }],
    ['wrong method', { method: 'test/thing/put', params: { q: 'x' }, id: 1 }],
    ['params of the wrong type', { method: 'test/thing/get', params: { q: 3 }, id: 1 }],
    ['params not an object', { method: 'test/thing/get', params: 'q', id: 1 }],
    ['no params', { method: 'test/thing/get', params: undefined, id: 1 }],
  ];
  for (const [why, message] of malformed) assert.equal(request.is(message), false, why);
  // A command has no reply, so it needs no id.
  const command = new IpcCommand<{ q: string }>('test/thing/do', isQuery);
  assert.equal(command.is({ method: 'test/thing/do', params: { q: 'x' } }), true);
});

test('checkedField(saved, key, guard) reads a place out of saved state and refuses anything malformed', () => {
  const ref = { folder: '/runs/a', episodeId: 7 };
  assert.deepEqual(checkedField({ ref, version: 2 }, 'ref', isEpisodeRef), ref);
  const malformed: [string, unknown][] = [
    ['non-object', 'ref'],
    ['null', null],
    ['array', [ref]],
    ['missing field', { version: 2 }],
    ['field of the wrong type', { ref: { folder: '/runs/a', episodeId: '7' } }],
    ['empty folder', { ref: { folder: '', episodeId: 7 } }],
    ['negative id', { ref: { folder: '/runs/a', episodeId: -1 } }],
  ];
  for (const [why, saved] of malformed) assert.equal(checkedField(saved, 'ref', isEpisodeRef), undefined, why);
});

test('pickFields(value, keys) keeps only the named fields, so nothing the webview added travels on', () => {
  const saved = checkedField({ ref: { folder: '/runs/a', episodeId: 7, script: '<img>' } }, 'ref', isEpisodeRef);
  assert.ok(saved, 'a guard accepts extra fields');
  assert.deepEqual(pickFields(saved, ['folder', 'episodeId']), { folder: '/runs/a', episodeId: 7 });
});

test('IpcRequest has a typed response notification on <method>/response', () => {
  const isQuery = (value: unknown): value is { q: string } => typeof (value as { q?: unknown } | null)?.q === 'string';
  const request = new IpcRequest<{ q: string }, number>('test/thing/get', isQuery);
  const reply: IpcMessage = request.response.with({ ok: true, value: 3 }, 1);
  assert.equal(reply.method, 'test/thing/get/response');
  assert.equal(request.response.is(reply), true);
  assert.equal(request.is({ method: 'test/thing/get', params: { q: 1 } }), false);
  assert.ok(new IpcNotification<number>('n') instanceof IpcNotification);
  assert.ok(new IpcCommand<{ q: string }>('c', isQuery) instanceof IpcCommand);
});

test('isRecord(value) is true for plain objects only', () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord([]), false);
  assert.equal(isRecord(null), false);
  assert.equal(isRecord('x'), false);
});

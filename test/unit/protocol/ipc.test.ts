import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  IpcCommand,
  IpcNotification,
  IpcRequest,
  isIpcMessage,
  isRecord,
  type IpcMessage,
} from '../../../src/protocol/ipc';

test('isIpcMessage(value) accepts a method with an optional numeric id and nothing else', () => {
  assert.equal(isIpcMessage({ method: 'a/b', params: {} }), true);
  assert.equal(isIpcMessage({ method: 'a/b', params: null, id: 3 }), true);
  for (const bad of [null, undefined, 'a/b', 42, [], {}, { method: 1 }, { method: 'a', id: '1' }])
    assert.equal(isIpcMessage(bad), false, JSON.stringify(bad));
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

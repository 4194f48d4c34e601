import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { GroupReadyCommand } from '../../../src/protocol/groupPanel';
import { HostIpc } from '../../../webview/src/ipc';

function fakeHost(): { sent: unknown[]; ipc: HostIpc } {
  const sent: unknown[] = [];
  const host = {
    postMessage: (m: unknown) => sent.push(m),
    getState: () => undefined,
    setState: () => {},
    isFallback: true,
  };
  const target = { origin: 'x', addEventListener: () => {}, removeEventListener: () => {} };
  return { sent, ipc: new HostIpc(host, target) };
}

test('sendReady: says ready at once, again every 2 s with fresh params until answered, then stops', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { sent, ipc } = fakeHost();
    let ref: string | null = null;
    let answered = false;
    ipc.sendReady(
      GroupReadyCommand,
      () => ({ stateVersion: 1, ref: ref === null ? null : { folder: '/f', runId: 1, group: ref } }),
      () => answered,
    );
    assert.equal(sent.length, 1, 'ready at once');
    mock.timers.tick(1999);
    assert.equal(sent.length, 1);
    ref = 'g1';
    mock.timers.tick(1);
    assert.equal(sent.length, 2, 'again after 2 s');
    assert.deepEqual((sent[1] as { params: { ref: unknown } }).params.ref, { folder: '/f', runId: 1, group: 'g1' });
    answered = true;
    for (let t = 0; t < 5; t++) mock.timers.tick(2000);
    assert.equal(sent.length, 2, 'nothing once answered');
  } finally {
    mock.timers.reset();
  }
});

test('sendReady: gives up after 15 retries (30 s) when nothing answers', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { sent, ipc } = fakeHost();
    ipc.sendReady(
      GroupReadyCommand,
      () => ({ stateVersion: 1, ref: null }),
      () => false,
    );
    for (let t = 0; t < 30; t++) mock.timers.tick(2000);
    assert.equal(sent.length, 16, 'the first and 15 more');
  } finally {
    mock.timers.reset();
  }
});

// Issue 7: a Who&When sample in the Episode view — the blame label on the exact message and agent,
// with the credit under the shared reward beside it.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { EpisodeViewService } from '../../../../src/engine/views/episodeViewService';
import { openDatabase } from '../../../../src/store/database';
import { tempFolder } from '../../../builders/episodeBuilder';

const samples = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'importers', 'who-and-when', 'Hand-Crafted');

test('a Who&When episode shows its mistake_step label on the message its mistake_agent spoke, next to its credit', async () => {
  const root = tempFolder();
  cpSync(join(samples, '1.json'), join(root, '1.json'));
  const raw = JSON.parse(readFileSync(join(root, '1.json'), 'utf8')) as { mistake_agent: string };
  await runIndexJob({ root, search: false });
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  try {
    const service = new EpisodeViewService(db, root);
    const episodeId = db.prepare<{ episode_id: number }>('SELECT episode_id FROM episode').get()!.episode_id;
    const view = service.episode(episodeId, {
      defaultMethod: 'shared',
      evaluator: { configured: false, description: 'built-in final-answer', reason: null },
    });
    assert.ok(view);
    const label = view.labels.find((l) => l.kind === 'mistake');
    assert.ok(label && label.message !== null, JSON.stringify(view.labels));
    assert.equal(label.agent?.toLowerCase(), raw.mistake_agent.replace(/\s*\(.*\)$/, '').toLowerCase());
    const window = await service.messages(episodeId, label.message, 1);
    assert.equal(window.messages[0]?.agent, label.agent, 'the label sits on a message of its agent');
    const credit = service.credit(episodeId, 'shared', false);
    assert.equal(
      credit.messageCredit.length,
      view.messageCount,
      'every message, the labelled one included, has its credit slot',
    );
  } finally {
    db.close();
  }
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

test('every view title action has a codicon, so a narrow view shows icons instead of a cut title', () => {
  const byId = new Map(manifest.contributes.commands.map((c) => [c.command, c]));
  const actions = manifest.contributes.menus['view/title'] ?? [];
  assert.ok(actions.length >= 4);
  for (const action of actions) {
    const icon = byId.get(action.command)?.icon;
    assert.match(icon ?? '', /^\$\([a-z-]+\)$/, `${action.command} has no codicon`);
  }
});

test('command titles use words, not internal names (no camelCase, no double dots)', () => {
  for (const { title } of manifest.contributes.commands) {
    assert.doesNotMatch(title, /[a-z][A-Z]|\.\./, title);
  }
});

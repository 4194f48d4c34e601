import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditFlag } from '../../../../src/core/auditReport';
import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { indexRunFolder } from '../../../../src/ingest/indexRunFolder';
import { AuditRepository } from '../../../../src/store/auditRepository';
import { BrowseRepository } from '../../../../src/store/browseRepository';
import { IndexStore } from '../../../../src/store/indexStore';
import { tempFolder } from '../../../builders/episodeBuilder';

/** A small demo folder indexed into an in-memory store, with two flags on the team run. */
export interface DemoIndex {
  readonly root: string;
  readonly store: IndexStore;
  readonly browse: BrowseRepository;
  readonly teamRunId: number;
  readonly routedRunId: number;
}

export const teamUri = (step: number): string => `planner-solver-verifier/rollouts/step_000${step}.jsonl`;

/** A free-rider over steps 2..3 and a silent verifier in episode s1-g1-r2 (step 1, line 6). */
export const demoFlags: readonly AuditFlag[] = [
  {
    kind: 'free-rider',
    agent: 'verifier',
    scope: 'step',
    steps: [2, 3],
    location: { uri: teamUri(2), line: 1 },
    evidence: { meanCredit: 0.001, meanReward: 0.8, score: 2 },
  },
  {
    kind: 'silent',
    agent: 'verifier',
    scope: 'episode',
    episode: 's1-g1-r2',
    location: { uri: teamUri(1), line: 6 },
    evidence: { silentEpisodes: 1, note: '<b>*x*</b>' },
  },
];

/**
 * Two runs (the team and the routed run; the demo's `-credit` run is left out) of 3 steps × 2 groups
 * × 3 rollouts (18 episodes each), one unreadable line appended to the routed run's step 2 file
 * (line 7), flags {@link demoFlags} on the team run.
 */
export async function demoIndex(): Promise<DemoIndex> {
  const root = tempFolder('credit-lens-browse-');
  writeDemoRun(root, { steps: 3, groupsPerStep: 2, samplesPerGroup: 3, creditRun: false });
  appendFileSync(join(root, 'routed-experts', 'rollouts', 'step_0002.jsonl'), 'not json\n');
  const store = IndexStore.open(':memory:');
  await indexRunFolder(root, store);
  const browse = new BrowseRepository(store.db);
  const runs = browse.runs();
  const teamRunId = runs.find((r) => r.name === 'planner-solver-verifier')?.runId ?? -1;
  const routedRunId = runs.find((r) => r.name === 'routed-experts')?.runId ?? -1;
  new AuditRepository(store.db).replaceFlags(teamRunId, demoFlags);
  return { root, store, browse, teamRunId, routedRunId };
}

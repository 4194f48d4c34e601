import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenarioEpisodes, scenarioManifest, type ScenarioSpec } from './scenario';
import { scenarioName } from './scenarioPlan';

/**
 * Writes one scenario as a run folder `<dir>/<name>/` (name from scenarioName, e.g.
 * `s3-pipeline-n3-noise0.05-free-rider-honest-honest`): `run.json` and `rollouts/step_0001.jsonl`…,
 * one episode per line. The folder is deleted first, so it never mixes files (or a stale index) of
 * an earlier spec. Scenario runs are small (about 1 MB per 1,000 episodes), so each step file is
 * written in one call. The ground truth is not written: the folder is what an auditor sees.
 */
export function writeScenario(dir: string, spec: ScenarioSpec): { folder: string; episodes: number } {
  const manifest = scenarioManifest(spec);
  const folder = join(dir, scenarioName(spec));
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(join(folder, 'rollouts'), { recursive: true });
  writeFileSync(join(folder, 'run.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  let episodes = 0;
  let lines: string[] = [];
  let step = 0;
  const flush = (): void => {
    if (lines.length > 0)
      writeFileSync(join(folder, 'rollouts', `step_${String(step).padStart(4, '0')}.jsonl`), `${lines.join('\n')}\n`);
    lines = [];
  };
  for (const episode of scenarioEpisodes(spec)) {
    if (episode.step !== step) {
      flush();
      step = episode.step ?? 0;
    }
    lines.push(JSON.stringify(episode));
    episodes++;
  }
  flush();
  return { folder, episodes };
}

/** Options of the seeded demo-run generator; every field has a default. */
export interface DemoOptions {
  /** PRNG seed; the same options always give the same episodes. Default 7. */
  seed?: number;
  /** Training steps. Default 40 for the team run, 20 for the routed run. */
  steps?: number;
  /** GRPO groups (problems) per step. Default 8. */
  groupsPerStep?: number;
  /** Rollouts per group. Default 4. */
  samplesPerGroup?: number;
  /** Total episodes of the team run; when set, steps = ceil(episodes / (groups*samples)) and generation stops at exactly this many. */
  episodes?: number;
  /** plan → solve → verify rounds per team episode. Default 1. */
  rounds?: number;
  /** Long chain-of-thought messages (benchmark-size runs). Default false. */
  verbose?: boolean;
  /** True (default): the verifier learns to idle. False: a control run where every agent contributes. */
  freeRider?: boolean;
}

/** {@link DemoOptions} with the defaults applied and the run size worked out. */
export interface ResolvedDemoOptions {
  readonly seed: number;
  readonly steps: number;
  readonly groupsPerStep: number;
  readonly samplesPerGroup: number;
  /** Exactly how many episodes the generator yields. */
  readonly episodes: number;
  readonly rounds: number;
  readonly verbose: boolean;
  readonly freeRider: boolean;
}

/** Default seed of the demo runs. */
export const defaultDemoSeed = 7;

/**
 * Applies the defaults for a run of `defaultSteps` steps. `episodes` wins over `steps` when both are
 * set. Throws a RangeError on a size that is not a positive integer (a caller bug, not bad data).
 */
export function resolveDemoOptions(
  options: DemoOptions,
  defaultSteps: number,
  useEpisodes: boolean,
): ResolvedDemoOptions {
  const groupsPerStep = positiveInteger('groupsPerStep', options.groupsPerStep ?? 8);
  const samplesPerGroup = positiveInteger('samplesPerGroup', options.samplesPerGroup ?? 4);
  const perStep = groupsPerStep * samplesPerGroup;
  const wanted =
    useEpisodes && options.episodes !== undefined ? positiveInteger('episodes', options.episodes) : undefined;
  const steps =
    wanted !== undefined ? Math.ceil(wanted / perStep) : positiveInteger('steps', options.steps ?? defaultSteps);
  return {
    seed: options.seed ?? defaultDemoSeed,
    steps,
    groupsPerStep,
    samplesPerGroup,
    episodes: wanted ?? steps * perStep,
    rounds: positiveInteger('rounds', options.rounds ?? 1),
    verbose: options.verbose ?? false,
    freeRider: options.freeRider ?? true,
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`demo option ${name} must be a positive integer, got ${value}`);
  return value;
}

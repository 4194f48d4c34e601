import { studentTQuantile } from '../game/studentTQuantile';
import { pairedStatistics, type Interval } from '../stats/pairedStatistics';

/** The K replayed rewards of one counterfactual, summarised. */
export interface ReplaySamples {
  /** Finite rewards used (NaN ones, unscorable replays, are skipped). */
  readonly n: number;
  readonly mean: number;
  /** Standard error of the mean, `sd/√n`. */
  readonly se: number;
  /** The 95% t interval `mean ± t(0.975, n−1)·se`. */
  readonly ci95: Interval;
}

/**
 * Mean, standard error and 95% interval of `samples = K` replayed rewards of one counterfactual
 * (credit-methods.md §5.3, stochastic replays: average within the episode first). The interval is
 * Student's t with `n − 1` degrees of freedom, as K is small; its mean and se are those of
 * {@link pairedStatistics}. One reward gives the mean with NaN se and interval; K equal rewards a
 * zero-width interval; none, NaN throughout.
 */
export function replaySamples(rewards: ArrayLike<number>): ReplaySamples {
  const { n, mean, se } = pairedStatistics(rewards);
  if (n < 2) return { n, mean, se: NaN, ci95: [NaN, NaN] };
  const half = studentTQuantile(0.975, n - 1) * se;
  return { n, mean, se, ci95: [mean - half, mean + half] };
}

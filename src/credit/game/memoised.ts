/**
 * `value` memoised by mask, so each distinct coalition is evaluated once (a stochastic `v` then
 * still conserves, and `cache.size` counts the evaluations).
 */
export function memoised<M>(value: (mask: M) => number): {
  readonly value: (mask: M) => number;
  readonly cache: Map<M, number>;
} {
  const cache = new Map<M, number>();
  return {
    cache,
    value: (mask) => {
      let result = cache.get(mask);
      if (result === undefined) cache.set(mask, (result = value(mask)));
      return result;
    },
  };
}

/**
 * Textbook exact Shapley values over all orderings, for small test games only (credit-methods.md
 * §3.7). `value(mask)` is v(S) with bit i = player i present.
 */
export function exactShapley(players: number, value: (mask: number) => number): number[] {
  const phi = new Array<number>(players).fill(0);
  const orders = permutations([...Array(players).keys()]);
  for (const order of orders) {
    let mask = 0;
    for (const player of order) {
      const before = value(mask);
      mask |= 1 << player;
      phi[player] = (phi[player] ?? 0) + (value(mask) - before) / orders.length;
    }
  }
  return phi;
}

/** Leave-one-out `v(N) − v(N \ {i})` for every player. */
export function leaveOneOut(players: number, value: (mask: number) => number): number[] {
  const all = (1 << players) - 1;
  return Array.from({ length: players }, (_, i) => value(all) - value(all & ~(1 << i)));
}

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, k) =>
    permutations([...items.slice(0, k), ...items.slice(k + 1)]).map((rest) => [item, ...rest]),
  );
}

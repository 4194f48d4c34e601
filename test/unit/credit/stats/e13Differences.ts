/** credit-methods.md §8 E13: n = 100 paired episodes, b = 3 (+1), c = 1 (−1), 96 ties. */
export const e13Differences: readonly number[] = [...Array<number>(3).fill(1), -1, ...Array<number>(96).fill(0)];

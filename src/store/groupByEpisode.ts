/** Rows of several episodes (one query over an id range) grouped by episode id, in row order. */
export function groupByEpisode<T extends { episode_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.episode_id);
    if (list) list.push(row);
    else map.set(row.episode_id, [row]);
  }
  return map;
}

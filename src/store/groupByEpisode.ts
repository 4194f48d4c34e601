/** Rows of several episodes (one query over an id range) grouped by episode id, in row order. */
export function groupByEpisode<T extends { episodeId: number }>(rows: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.episodeId);
    if (list) list.push(row);
    else map.set(row.episodeId, [row]);
  }
  return map;
}

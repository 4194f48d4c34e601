import { copyFileSync, rmSync } from 'node:fs';
import { openDatabase } from '../src/store/database';

/**
 * A copy of an index whose logged coalition values are graded: every value but the empty
 * coalition's becomes a fraction in [0, 1) from a hash of its episode and coalition (squared, so
 * that the differences LOO takes vary too), so almost every credit value of a pass is distinct, as
 * graded rewards, partial-credit checkers and Shapley values give; the generated run's 0/1 rewards
 * give three. The credit rows then land all over `credit_agent_sort` instead of at a few insertion
 * points: the write path real runs take, which the benchmark's binary rewards flattered
 * (BENCHMARKS.md, issue 15 tenth part). The copy keeps none of `db`'s credit (a pass on it is a
 * first pass) and sits beside `db`.
 */
export function gradedIndexCopy(db: string): string {
  const copy = indexCopy(db, 'graded');
  const graded = openDatabase(copy);
  graded.exec(`
    DELETE FROM credit_value; DELETE FROM credit_set; DELETE FROM credit_error; DELETE FROM credit_params;
    DELETE FROM credit_step_agent; DELETE FROM credit_step_coverage; DELETE FROM credit_view_state;
    UPDATE coalition_value SET values_json = (
      SELECT json_group_object(j.key, CASE WHEN j.key = '' THEN j.value
        ELSE (((coalition_value.episode_id * 2654435761 + j.id * 40503) % 1000003) *
          ((coalition_value.episode_id * 2654435761 + j.id * 40503) % 1000003) % 1000003) / 1000003.0 END)
      FROM json_each(coalition_value.values_json) j)
    WHERE source = 'logged'`);
  graded.close();
  return copy;
}

/** A copy of the index `db` beside it, `<db>.<tag>.sqlite`, holding every page `db` committed. */
export function indexCopy(db: string, tag: string): string {
  const copy = `${db.replace(/\.sqlite$/, '')}.${tag}.sqlite`;
  removeIndexFiles(copy);
  const source = openDatabase(db);
  source.pragma('wal_checkpoint(TRUNCATE)'); // the copy must hold every committed page
  source.close();
  copyFileSync(db, copy);
  return copy;
}

/** Deletes an index file and its WAL and shared-memory files. */
export function removeIndexFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

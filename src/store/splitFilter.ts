import { validationSplitNames, type SplitChoice } from '../core/split';

/**
 * SQL giving the split kind (`'train'` or `'validation'`) of episode `alias`, classified as in
 * core/split.ts: a validation name (any case) is `validation`, anything else or none `train`.
 */
export function splitKindOf(alias: string): string {
  const names = validationSplitNames.map((n) => `'${n}'`).join(', ');
  return `CASE WHEN lower(coalesce(${alias}.split, '')) IN (${names}) THEN 'validation' ELSE 'train' END`;
}

/**
 * SQL that is true when episode `alias` is in the split bound to `param` (`?` or a named
 * parameter) as {@link splitParam} gives it.
 */
export function splitCondition(alias: string, param = '?'): string {
  return `instr(${param}, ${splitKindOf(alias)}) > 0`;
}

/** The value bound to a {@link splitCondition} parameter. */
export function splitParam(choice: SplitChoice): string {
  return choice === 'all' ? 'train,validation' : choice;
}

import { validationSplitNames, type SplitChoice } from '../core/split';

/**
 * SQL that is true when episode `alias` is in the split bound to `param` (`?` or a named
 * parameter) as {@link splitParam} gives it. The episode's free-text `split` is classified as in
 * core/split.ts: a validation name (any case) is `validation`, anything else or none `train`.
 */
export function splitCondition(alias: string, param = '?'): string {
  const names = validationSplitNames.map((n) => `'${n}'`).join(', ');
  return `instr(${param}, CASE WHEN lower(coalesce(${alias}.split, '')) IN (${names}) THEN 'validation' ELSE 'train' END) > 0`;
}

/** The value bound to a {@link splitCondition} parameter. */
export function splitParam(choice: SplitChoice): string {
  return choice === 'all' ? 'train,validation' : choice;
}

/** Trace formats whose rewards the final-answer checker cannot reproduce, and why. */
const unscorableFormats: Readonly<Record<string, string>> = {
  'tau-bench':
    'tau-bench rewards compare the tool actions and the final database state with the task, not a final answer',
  inspect: "Inspect rewards come from the task's own scorers, which the final-answer checker does not reimplement",
};

/** Longest normalised ground truth the checker treats as a short final answer. */
export const maxShortAnswerChars = 64;

/**
 * Why the built-in final-answer checker cannot score an episode, or undefined when it can
 * (docs/credit-provenance.md, "What the built-in checker scores"). It scores final numeric or short
 * answers: a GSM8K solution (`#### 42`), a `\boxed{…}` answer, or a short string. It declines traces
 * without a ground truth, structured ground truths (JSON lists or objects such as tool actions),
 * long free text, and formats whose rewards come from elsewhere (tau-bench, Inspect).
 */
export function finalAnswerCannotScore(groundTruth: string | null, format: string | undefined): string | undefined {
  const byFormat = format === undefined ? undefined : unscorableFormats[format];
  if (byFormat !== undefined) return byFormat;
  if (groundTruth === null || groundTruth.trim() === '')
    return 'the episode has no ground truth to compare a final answer with';
  const text = groundTruth.trim();
  if (text.includes('####') || text.includes('\\boxed')) return undefined;
  if (/^[[{]/.test(text))
    return 'its ground truth is structured data (such as a list of tool actions), not a final answer';
  if (text.length > maxShortAnswerChars)
    return `its ground truth is ${text.length} characters of text, not a short final answer (at most ${maxShortAnswerChars})`;
  return undefined;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * `1 message`, `3 messages`, `1,920 episodes`: the count grouped in en-US (the locale of every
 * figure Credit Lens prints) and the noun in the singular only for exactly one. `pluralNoun` is
 * for nouns that do not take an `s` (`1 reply`, `2 replies`).
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${Number.isFinite(count) ? grouped.format(count) : String(count)} ${count === 1 ? noun : pluralNoun}`;
}

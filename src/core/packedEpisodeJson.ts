/**
 * Reads of two JSON columns the indexer writes for every episode, for the credit pass that reads
 * them for every episode (docs/architecture.md §9, "The pass's reading thread"). Each takes only what the pass needs,
 * with one sticky regular expression instead of `JSON.parse` of the whole value: a third of the
 * time (BENCHMARKS.md, issue 15, twenty-first part). Each answers exactly what `JSON.parse` would, and
 * falls back to it for any text not in the shape the indexer writes.
 */

/** One packed message: an integer roster ordinal first, then numbers, `null` and strings (which may hold brackets). */
const packedMessage = /\[(-?\d+)(?=[,\]])(?:[^"\]]|"(?:[^"\\]|\\.)*")*\]/y;

/**
 * The author (roster ordinal) of each message of `episode.messages_json`, whose messages are
 * `[ordinal, turn, role, channel, n_chars, n_tokens, has_tokens]` (ingest/compactEpisode.ts).
 */
export function messageAuthors(messagesJson: string): number[] {
  const authors: number[] = [];
  if (messagesJson === '[]') return authors;
  let at = 1;
  if (messagesJson.charCodeAt(0) !== 91) return authorsParsed(messagesJson);
  for (;;) {
    packedMessage.lastIndex = at;
    const match = packedMessage.exec(messagesJson);
    if (match === null) return authorsParsed(messagesJson);
    authors.push(Number(match[1]));
    at = packedMessage.lastIndex;
    const next = messagesJson.charCodeAt(at);
    if (next === 93 && at === messagesJson.length - 1) return authors; // the closing ]
    if (next !== 44) return authorsParsed(messagesJson); // not a comma
    at++;
  }
}

function authorsParsed(messagesJson: string): number[] {
  return (JSON.parse(messagesJson) as [number][]).map((m) => m[0]);
}

/** One `"<sorted agent ids>":value` entry of a coalition's values, the value a plain JSON number. */
const coalitionEntry = /"([0-9,]*)":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=[,}])/y;

/**
 * The entries of `coalition_value.values_json` (`{"<sorted agent ids>": v(S)}`, "" the empty
 * coalition) in the order `Object.entries(JSON.parse(valuesJson))` gives them. A repeated key comes
 * as often as it is written: a Map built from the entries keeps its last value at its first place,
 * as the parse does.
 */
export function coalitionEntries(valuesJson: string): [string, number][] {
  const entries: [string, number][] = [];
  if (valuesJson === '{}') return entries;
  if (valuesJson.charCodeAt(0) !== 123) return entriesParsed(valuesJson);
  const order = new KeyOrder();
  let at = 1;
  for (;;) {
    coalitionEntry.lastIndex = at;
    const match = coalitionEntry.exec(valuesJson);
    const key = match?.[1];
    if (match === null || key === undefined || !order.accepts(key)) return entriesParsed(valuesJson);
    entries.push([key, Number(match[2])]);
    at = coalitionEntry.lastIndex;
    const next = valuesJson.charCodeAt(at);
    if (next === 125 && at === valuesJson.length - 1) return entries; // the closing }
    if (next !== 44) return entriesParsed(valuesJson); // not a comma
    at++;
  }
}

function entriesParsed(valuesJson: string): [string, number][] {
  return Object.entries(JSON.parse(valuesJson) as Record<string, number>);
}

/**
 * Whether keys come in the order the parse gives them: integer keys (single agents, "3") first
 * and ascending, then the others as written. The indexer writes them so (by coalition size, then
 * ids); any other order is left to the parse.
 */
class KeyOrder {
  private lastInteger = -1;
  private pastIntegers = false;

  accepts(key: string): boolean {
    const integer = key !== '' && !key.includes(',') && (key.length === 1 || key.charCodeAt(0) !== 48);
    if (!integer) {
      this.pastIntegers = true;
      return true;
    }
    const value = Number(key);
    if (this.pastIntegers || value <= this.lastInteger || value >= 4294967295) return false;
    this.lastInteger = value;
    return true;
  }
}

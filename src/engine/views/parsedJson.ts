/** `text` parsed as JSON; undefined when it is not JSON (trace text is untrusted: never throws). */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

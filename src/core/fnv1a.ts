/** FNV-1a's offset basis: the hash of no code unit. */
export const fnv1aBasis = 0x811c9dc5;

/** FNV-1a's step: `hash` with one more code unit. */
export function fnv1aStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, 0x01000193);
}

/** The 32-bit FNV-1a hash of a string's UTF-16 code units, unsigned. */
export function fnv1a(text: string): number {
  let hash = fnv1aBasis;
  for (let i = 0; i < text.length; i++) hash = fnv1aStep(hash, text.charCodeAt(i));
  return hash >>> 0;
}

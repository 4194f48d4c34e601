import { TextPacker, type PackedTexts } from '../../src/core/packedTexts';

/** Whole documents packed as a parser packs its batches' search documents. */
export function packTexts(documents: readonly string[]): PackedTexts {
  const packer = new TextPacker();
  for (const document of documents) packer.push(document);
  return packer.take();
}

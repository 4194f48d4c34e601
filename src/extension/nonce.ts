import { randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiple of the alphabet size that fits in a byte: bytes at or above it are rejected. */
const unbiasedLimit = 256 - (256 % alphabet.length);

/**
 * A CSP nonce: `length` characters from [A-Za-z0-9] (32 by default, about 190 bits), drawn from
 * `crypto.randomBytes`. Bytes are rejection-sampled so every character is equally likely (a plain
 * `byte % 62` would favour the first eight). Never `Math.random()`: it is predictable, and a
 * predictable nonce lets injected script pass the CSP.
 */
export function createNonce(length = 32): string {
  let nonce = '';
  while (nonce.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte >= unbiasedLimit) continue;
      nonce += alphabet.charAt(byte % alphabet.length);
      if (nonce.length === length) break;
    }
  }
  return nonce;
}

import { randomInt } from 'node:crypto';

// Same alphabet kube uses for generated suffixes: no vowels (no words), no ambiguous characters.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;
const MAX_NAME_LENGTH = 63;

/** `generateName` plus a random 5-character suffix; the prefix is cut so the result fits 63. */
export function generateName(prefix: string): string {
  const base =
    prefix.length > MAX_NAME_LENGTH - SUFFIX_LENGTH ? prefix.slice(0, MAX_NAME_LENGTH - SUFFIX_LENGTH) : prefix;
  // randomInt draws from Node's buffered random bytes (no system call per name), without bias.
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return base + suffix;
}

import { randomFillSync } from 'node:crypto';

/** Random bytes fetched at a time: 256 UUIDs. */
const POOL_BYTES = 4096;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

/**
 * Makes random (version 4, RFC 9562) UUIDs in lower-case text, from a pool of bytes of the
 * system's cryptographic random source refilled 4 KiB at a time. Each UUID is written into a
 * scratch buffer and read out as one string: `crypto.randomUUID` builds its text from twenty
 * joined pieces, which a request pays for in garbage. Not shared between callers: each source
 * owns its pool.
 */
export function uuidSource(): () => string {
  const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
  const text = Buffer.allocUnsafeSlow(36);
  let offset = POOL_BYTES;
  return () => {
    if (offset === POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    let at = 0;
    for (let i = 0; i < 16; i++) {
      let b = pool[offset + i] as number;
      if (i === 6) b = (b & 0x0f) | 0x40;
      else if (i === 8) b = (b & 0x3f) | 0x80;
      if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
      text[at++] = HEX[b >> 4] as number;
      text[at++] = HEX[b & 0x0f] as number;
    }
    offset += 16;
    return text.toString('latin1', 0, 36);
  };
}

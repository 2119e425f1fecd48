import type { PodTemplateSpec } from '../../apis/core/pod-types.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnv32a(bytes: Uint8Array, seed = FNV_OFFSET): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted, so that equal templates hash equally. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

/** kube's `rand.SafeEncodeString`: each byte to one of 27 letters and digits without vowels. */
function safeEncode(s: string): string {
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

/**
 * The `pod-template-hash` of a template, as kube's `ComputeHash` builds it: FNV-32a of the
 * template, then of the collision count (4 bytes, little-endian) when set, the decimal of the
 * hash encoded with `SafeEncodeString`. kube hashes Go's printed form of its internal struct,
 * which this cannot reproduce; it hashes the template's canonical JSON instead, so the values
 * differ from kube's (they are consistent and equally shaped, which is all clients rely on).
 */
export function podTemplateHash(template: PodTemplateSpec | undefined, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template ?? {})));
  if (collisionCount !== undefined) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncode(String(h));
}

import { createHash } from 'node:crypto';
import type { ApiDomain } from '../../apis/api-domain.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower case. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A `uint16` length prefix and the bytes, as Go's `cryptobyte.AddUint16LengthPrefixed`. */
function lengthPrefixed(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/**
 * kube-apiserver's identity (`APIServerID`): `apiserver-` and the lower-case unpadded base32 of
 * the first 16 bytes of the SHA-256 of the length-prefixed host name and component name
 * (`kube-apiserver`, here the domain's API server name). Stable across restarts on one host.
 */
export function apiServerId(host: string, domain: ApiDomain): string {
  const hash = createHash('sha256')
    .update(Buffer.concat([lengthPrefixed(host), lengthPrefixed(domain.apiServerManager)]))
    .digest();
  return `apiserver-${base32(hash.subarray(0, 16))}`;
}

/** The label naming an identity lease's component: `apiserver.<domain>/identity`. */
export function identityLabel(domain: ApiDomain): string {
  return domain.key('apiserver', 'identity');
}

/** The selector of the API servers' identity leases: `apiserver.<domain>/identity=<name>`. */
export function identityLeaseSelector(domain: ApiDomain): string {
  return `${identityLabel(domain)}=${domain.apiServerManager}`;
}

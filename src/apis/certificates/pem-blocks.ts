/**
 * PEM and DER reading as Go's `encoding/pem` and `crypto/x509` see CSRs and certificates, for the
 * CertificateSigningRequest rules. Pure; never throws on bad input.
 */

/** One PEM block: its type, whether it carried headers, and its decoded bytes. */
export interface PemBlock {
  readonly type: string;
  readonly hasHeaders: boolean;
  readonly bytes: Buffer;
}

const BEGIN = /-----BEGIN ([^\n-]*)-----\r?\n/;
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

/**
 * Go's `pem.Decode`: the first well-formed block in `data` (text before it is skipped) and the
 * rest after it; undefined when there is none.
 */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let text = data;
  for (;;) {
    const m = BEGIN.exec(text);
    if (!m) return undefined;
    const type = m[1];
    const bodyStart = m.index + m[0].length;
    const endMarker = `-----END ${type}-----`;
    const end = text.indexOf(endMarker, bodyStart);
    if (end < 0) return undefined;
    const body = text.slice(bodyStart, end);
    const lines = body.split(/\r?\n/);
    let hasHeaders = false;
    let i = 0;
    while (i < lines.length && lines[i].includes(':')) {
      hasHeaders = true;
      i++;
    }
    const b64 = lines.slice(i).join('');
    if (BASE64.test(b64)) {
      const rest = text.slice(end + endMarker.length).replace(/^\r?\n/, '');
      return { block: { type, hasHeaders, bytes: Buffer.from(b64.replace(/\s/g, ''), 'base64') }, rest };
    }
    text = text.slice(bodyStart);
  }
}

/** One DER element: where its contents are and where it ends. */
export interface DerElement {
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

/** The DER element at `offset` of `buf`, undefined when it is truncated or malformed. */
export function readDer(buf: Buffer, offset: number): DerElement | undefined {
  if (offset + 2 > buf.length) return undefined;
  const tag = buf[offset];
  let len = buf[offset + 1];
  let pos = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || pos + n > buf.length) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[pos + i];
    pos += n;
  }
  if (pos + len > buf.length) return undefined;
  return { tag, start: offset, contentStart: pos, end: pos + len };
}

/** The children of a constructed DER element (undefined when one is malformed). */
export function derChildren(buf: Buffer, parent: DerElement): DerElement[] | undefined {
  const out: DerElement[] = [];
  let pos = parent.contentStart;
  while (pos < parent.end) {
    const el = readDer(buf, pos);
    if (!el || el.end > parent.end) return undefined;
    out.push(el);
    pos = el.end;
  }
  return out;
}

/** The dotted form of a DER OBJECT IDENTIFIER's contents. */
export function oidString(bytes: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  if (parts.length === 0) return '';
  const first = parts[0] < 80 ? Math.floor(parts[0] / 40) : 2;
  return [first, parts[0] - first * 40, ...parts.slice(1)].join('.');
}

/** Go's `%#v` of a `[]byte`: `[]byte{0x2d, 0x2d}` (`[]byte(nil)` for none). */
export function goBytesLiteral(bytes: Buffer | undefined): string {
  if (bytes === undefined) return '[]byte(nil)';
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
}

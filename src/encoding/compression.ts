/**
 * Response compression as kube-apiserver does it (feature gate `APIResponseCompression`):
 * gzip at level 1 (`gzip.BestSpeed`), only when `Accept-Encoding` lists exactly the token
 * `gzip` and the encoded response is larger than 128 KiB; the response then carries
 * `Content-Encoding: gzip` and `Vary: Accept-Encoding`. Watches are never compressed.
 */
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';

/** kube's `defaultGzipThresholdBytes`: bodies up to this size are sent as they are. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** kube's `defaultGzipContentEncodingLevel`. */
export const GZIP_LEVEL = 1;
/** Headers to add to a gzipped response (`Vary` is appended to any existing value). */
export const GZIP_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Encoding': 'gzip',
  Vary: 'Accept-Encoding',
});

/**
 * kube's `negotiateContentEncoding`: true when one comma-separated token of `Accept-Encoding`,
 * trimmed, is exactly `gzip` (no q-values, case-sensitive: `gzip;q=1` and `GZIP` do not count).
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((token) => token.trim() === 'gzip');
}

/**
 * Whether a get/list/create/update/patch/delete response body of `bodyLength` bytes is to be
 * gzipped. `enabled` is the `APIResponseCompression` feature gate (default on).
 */
export function shouldGzip(acceptEncoding: string | undefined, bodyLength: number, enabled = true): boolean {
  return enabled && bodyLength > GZIP_THRESHOLD_BYTES && acceptsGzip(acceptEncoding);
}

/** gzip at kube's level, synchronously (about 1 ms per 128 KiB of JSON). */
export function gzipBody(body: Uint8Array): Buffer {
  return gzipSync(body, { level: GZIP_LEVEL });
}

const gzipAsync = promisify(gzip);

/** gzip at kube's level on the libuv thread pool. Rejects with the signal's reason if aborted. */
export async function gzipBodyAsync(body: Uint8Array, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const out = await gzipAsync(body, { level: GZIP_LEVEL });
  signal?.throwIfAborted();
  return out;
}

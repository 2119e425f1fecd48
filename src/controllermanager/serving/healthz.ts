import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorText } from '../../client/client-support.js';

/** A named health check: resolves when healthy, throws (or rejects) when not. */
export interface HealthCheck {
  readonly name: string;
  check(): void | Promise<void>;
}

/** kube's always-healthy `ping` check, installed when no other check is. */
export const PING_CHECK: HealthCheck = { name: 'ping', check: () => undefined };

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

async function failure(c: HealthCheck): Promise<unknown> {
  try {
    await c.check();
    return undefined;
  } catch (e) {
    return e ?? new Error('failed');
  }
}

/**
 * k8s.io/apiserver's healthz handler for `/healthz` and `/healthz/<check>`: the root runs every
 * check (`?exclude=<name>` skips one) and answers `ok`, or with `?verbose` one `[+]<name> ok`
 * line per check and `healthz check passed`; a failing check makes it 500 with
 * `[-]<name> failed: reason withheld` lines and `healthz check failed`. A single check's path
 * answers `ok` or 500 `internal server error: <error>`. Returns false when `path` is not a
 * healthz path.
 */
export async function serveHealthz(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  checks: readonly HealthCheck[],
): Promise<boolean> {
  const all = checks.length > 0 ? checks : [PING_CHECK];
  if (path.startsWith('/healthz/')) {
    const c = all.find((x) => `/healthz/${x.name}` === path);
    if (!c) return false;
    const err = await failure(c);
    if (err === undefined) text(res, 200, 'ok');
    else text(res, 500, `internal server error: ${errorText(err)}\n`);
    return true;
  }
  if (path !== '/healthz') return false;
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const excluded = new Set(query.getAll('exclude'));
  let out = '';
  let failed = false;
  for (const c of all) {
    if (excluded.delete(c.name)) {
      out += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if ((await failure(c)) === undefined) out += `[+]${c.name} ok\n`;
    else {
      out += `[-]${c.name} failed: reason withheld\n`;
      failed = true;
    }
  }
  if (excluded.size > 0) {
    out += `warn: some health checks cannot be excluded: no matches for ${[...excluded]
      .sort()
      .map((n) => `"${n}"`)
      .join(',')}\n`;
  }
  if (failed) text(res, 500, `${out}healthz check failed\n`);
  else text(res, 200, query.has('verbose') ? `${out}healthz check passed\n` : 'ok');
  return true;
}

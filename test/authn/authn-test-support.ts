import type { RunningServer } from '../../src/server/start-server.js';
import { request } from '../support/http-client.js';

/**
 * Who the server took the bearer of `token` for, under `--authorization-mode=AlwaysDeny`: the
 * user named in the 403 message, or the status when not 403 (401 for a rejected token, 200 for
 * `system:masters`).
 */
export async function whoAmI(
  server: RunningServer,
  token: string,
  path = '/api/v1/namespaces',
): Promise<string | number> {
  const r = await request(server.url, path, {
    ca: server.admin?.ca as string,
    headers: { authorization: `Bearer ${token}` },
  });
  if (r.status !== 403) return r.status;
  const m = /User "([^"]*)" cannot/.exec(r.json().message as string);
  return m ? (m[1] as string) : r.text;
}

/** Calls `check` until it returns `expected` (deep-equal by JSON) or `timeoutMs` passes; returns the last value. */
export async function eventually<T>(check: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await check();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    last = await check();
  }
  return last;
}

/** The TokenReview `status` of `token`, asked by the server's admin (which passes any authorizer). */
export async function tokenReviewStatus(server: RunningServer, token: string, audiences?: readonly string[]) {
  const admin = server.admin as NonNullable<RunningServer['admin']>;
  const group = 'authentication.orch.io';
  const r = await request(server.url, `/apis/${group}/v1/tokenreviews`, {
    method: 'POST',
    ca: admin.ca,
    as: { ca: admin.ca, cert: admin.cert, key: admin.key },
    body: { apiVersion: `${group}/v1`, kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } },
  });
  if (r.status !== 201) throw new Error(`tokenreviews: ${r.status} ${r.text}`);
  return r.json().status;
}

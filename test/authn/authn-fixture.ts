import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ServerOptions } from '../../src/server/start-server.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { type HttpResult, request } from '../support/http-client.js';

/** A temporary directory for configuration files; `remove` deletes it. */
export async function tempDir(
  prefix: string,
): Promise<{ dir: string; write(name: string, text: string): Promise<string>; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    dir,
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A server to send requests to: its URL and the CA that verifies it. */
export type Target = Pick<InProcessServer, 'url'> & { readonly admin: { readonly ca: string } };

/** How a test request authenticates. */
export interface As {
  readonly token?: string;
  readonly cert?: { readonly cert: string; readonly key: string };
  readonly headers?: Record<string, string>;
}

/** A server whose authorizer denies everyone but `system:masters`, so a 403 names the user. */
export async function startDenyingServer(options: ServerOptions = {}): Promise<InProcessServer> {
  return startInProcess({ authorizationModes: ['AlwaysDeny'], runControllers: false, ...options });
}

/** GET `path` as `as`. */
export function getAs(server: Target, path: string, as: As): Promise<HttpResult> {
  const headers: Record<string, string> = { ...(as.headers ?? {}) };
  if (as.token !== undefined) headers.authorization = `Bearer ${as.token}`;
  return request(server.url, path, {
    ca: server.admin.ca,
    headers,
    as: as.cert ? { ca: server.admin.ca, ...as.cert } : 'anonymous',
  });
}

/** The user a request ran as, read from AlwaysDeny's 403 (`User "x" cannot ...`); `200` for system:masters. */
export async function whoAmI(server: Target, as: As): Promise<string> {
  const r = await getAs(server, '/api/v1/namespaces', as);
  if (r.status === 200) return '200';
  if (r.status === 401) return '401';
  const m = /User "([^"]*)" cannot list resource "namespaces"/.exec(r.json().message);
  return m ? (m[1] as string) : `${r.status}: ${r.text}`;
}

const AUTHN = `/apis/${ORCH_DOMAIN.group('authentication')}/v1`;

/** TokenReview `status` of `token`, asked by the admin (system:masters passes AlwaysDeny). */
export async function tokenReview(server: InProcessServer, token: string, audiences?: string[]) {
  const r = await server.api.admin('POST', `${AUTHN}/tokenreviews`, {
    body: {
      apiVersion: `${ORCH_DOMAIN.group('authentication')}/v1`,
      kind: 'TokenReview',
      spec: { token, ...(audiences ? { audiences } : {}) },
    },
  });
  if (r.status !== 201) throw new Error(`tokenreviews: ${r.status} ${r.text}`);
  return r.json().status;
}

/** SelfSubjectReview `status.userInfo` of a request made as `as` (the user must pass the authorizer). */
export async function selfReview(server: Target, as: As) {
  const headers: Record<string, string> = { ...(as.headers ?? {}) };
  if (as.token !== undefined) headers.authorization = `Bearer ${as.token}`;
  const r = await request(server.url, `${AUTHN}/selfsubjectreviews`, {
    method: 'POST',
    ca: server.admin.ca,
    headers,
    as: as.cert ? { ca: server.admin.ca, ...as.cert } : 'anonymous',
    body: { apiVersion: `${ORCH_DOMAIN.group('authentication')}/v1`, kind: 'SelfSubjectReview' },
  });
  if (r.status !== 201) throw new Error(`selfsubjectreviews: ${r.status} ${r.text}`);
  return r.json().status.userInfo;
}

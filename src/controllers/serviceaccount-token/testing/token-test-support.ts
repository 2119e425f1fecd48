import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORCH_DOMAIN } from '../../../apis/api-domain.js';
import type { ApiObject } from '../../../apis/object.js';
import { alwaysAllow } from '../../../authz/index.js';
import type { ResourceClient } from '../../../client/api/api-client.js';
import type { ResourceSet } from '../../../registry/resource-set/index.js';
import type { Clock } from '../../../util/clock.js';
import { frozenUser } from '../../controller-client.js';
import { InProcessApiClient } from '../../in-process-api-client.js';

/** A test's client of one core resource, as an administrator. */
export function adminClient(resources: ResourceSet, resource: string): ResourceClient {
  const client = new InProcessApiClient(
    resources,
    { user: frozenUser({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }), manager: 'test' },
    alwaysAllow,
  );
  const r = client.resource('', 'v1', resource);
  if (!r) throw new Error(`${resource} not served`);
  return r;
}

const signal = new AbortController().signal;

/** GET, or undefined on 404. */
export async function getOrNone(c: ResourceClient, namespace: string, name: string): Promise<ApiObject | undefined> {
  try {
    return await c.get(namespace, name, signal);
  } catch (e) {
    if ((e as { code?: number }).code === 404) return undefined;
    throw e;
  }
}

/** Files a controller test writes (key and CA); `remove` deletes them. */
export interface TestFiles {
  readonly keyFile: string;
  readonly keyPem: string;
  readonly caFile: string;
  readonly caPem: string;
  remove(): Promise<void>;
}

/** A fresh EC P-256 signing key and a stand-in CA bundle, written to a temp directory. */
export async function writeTestFiles(
  caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
): Promise<TestFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-token-controllers-'));
  const keyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  const keyFile = join(dir, 'sa.key');
  const caFile = join(dir, 'ca.crt');
  await writeFile(keyFile, keyPem);
  await writeFile(caFile, caPem);
  return { keyFile, keyPem, caFile, caPem, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Base64 of UTF-8 text, as Secret data holds it. */
export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
/** Text of a Secret data value. */
export const text = (obj: ApiObject | undefined, key: string) => {
  const v = (obj?.data as Record<string, string> | undefined)?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
};

/** A clock tests move by hand. */
export function manualClock(start: Date): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
    set(d) {
      now = d.getTime();
    },
  };
}

export const DOMAIN = ORCH_DOMAIN;

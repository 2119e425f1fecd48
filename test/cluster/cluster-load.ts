import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterClient } from './cluster-client.js';

/** Counts from one load run. */
export interface LoadResult {
  /** Objects a create was sent for. */
  readonly sent: number;
  /** Objects whose create was acknowledged (201, or 409 on a retry after an unknown outcome). */
  readonly acknowledged: readonly string[];
  /** Attempts (writes and reads) that failed: network error or a status other than 2xx/409. */
  readonly failedAttempts: number;
  readonly failures: readonly string[];
  readonly reads: number;
  /** Longest time between two acknowledged writes (ms), from `pauseFrom` on. */
  readonly longestWriteGapMs: number;
}

export interface LoadOptions {
  readonly client: ClusterClient;
  readonly port: number;
  readonly namespace: string;
  readonly prefix: string;
  readonly writers: number;
  readonly readers: number;
  readonly signal: AbortSignal;
}

/**
 * Creates ConfigMaps `<prefix>-<n>` (label `load=<prefix>`) from `writers` loops and reads one
 * fixed ConfigMap from `readers` loops until `signal` aborts. A failed create is retried with the
 * same name until it answers 201, or 409 (a retry whose earlier attempt was applied: the object
 * is then read back to confirm it exists).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { client, port, namespace, prefix, signal } = options;
  let next = 0;
  let failedAttempts = 0;
  let reads = 0;
  const failures: string[] = [];
  const acknowledged: string[] = [];
  const ackTimes: number[] = [];
  const fail = (what: string) => {
    failedAttempts++;
    if (failures.length < 20) failures.push(what);
  };
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  const writer = async () => {
    while (!signal.aborted) {
      const name = `${prefix}-${next++}`;
      const body = { metadata: { name, labels: { load: prefix } }, data: { n: name } };
      for (let attempt = 0; ; attempt++) {
        let status = 0;
        try {
          status = (await client.call(port, 'POST', base, body)).status;
        } catch (e) {
          fail(`create ${name}: ${(e as Error).message}`);
          await sleep(50);
          continue;
        }
        if (status === 201 || (status === 409 && attempt > 0)) {
          if (status === 409 && (await client.call(port, 'GET', `${base}/${name}`)).status !== 200) {
            fail(`create ${name}: 409 but not found`);
            continue;
          }
          acknowledged.push(name);
          ackTimes.push(performance.now());
          break;
        }
        fail(`create ${name}: ${status}`);
        await sleep(50);
      }
    }
  };
  const reader = async () => {
    while (!signal.aborted) {
      try {
        const r = await client.call(port, 'GET', `${base}/${prefix}-0`);
        if (r.status !== 200 && r.status !== 404) fail(`read: ${r.status}`);
        else reads++;
      } catch (e) {
        fail(`read: ${(e as Error).message}`);
      }
      await sleep(5);
    }
  };
  await Promise.all([
    ...Array.from({ length: options.writers }, writer),
    ...Array.from({ length: options.readers }, reader),
  ]);
  let gap = 0;
  for (let i = 1; i < ackTimes.length; i++) gap = Math.max(gap, (ackTimes[i] as number) - (ackTimes[i - 1] as number));
  return { sent: next, acknowledged, failedAttempts, failures, reads, longestWriteGapMs: Math.round(gap) };
}

/** Names of the ConfigMaps labelled `load=<prefix>` now stored (a consistent list). */
export async function storedNames(
  client: ClusterClient,
  port: number,
  namespace: string,
  prefix: string,
): Promise<string[]> {
  const r = await client.call(port, 'GET', `/api/v1/namespaces/${namespace}/configmaps?labelSelector=load%3D${prefix}`);
  const items = (r.body?.items ?? []) as { metadata: { name: string } }[];
  return items.map((i) => i.metadata.name);
}

import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3, type IKeyValue } from 'etcd3';
import type { ClusterClient } from './cluster-client.js';

/** One change as a watch client saw it or as etcd recorded it. */
export interface Change {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly name: string;
  /** The object's resourceVersion: the etcd mod revision (the delete's revision for DELETED). */
  readonly rv: bigint;
}

/** What one watch client saw between two lists: the list (names at `listRv`) and the events after it. */
export interface WatchSegment {
  readonly listRv: bigint;
  readonly listed: readonly string[];
  readonly events: Change[];
}

/** One list-then-watch client, resuming from its last resourceVersion and relisting on 410. */
export interface Watcher {
  readonly segments: WatchSegment[];
  reconnects: number;
  relists: number;
  /** Replicas' answers: resourceVersions the watch was resumed from. */
  readonly resumedAt: string[];
}

export interface WatchersOptions {
  readonly client: ClusterClient;
  readonly port: number;
  /** Collection path, e.g. `/api/v1/namespaces/load/configmaps`. */
  readonly base: string;
  /** Encoded label selector (`load%3Dapiserver`). */
  readonly selector: string;
  readonly count: number;
  readonly signal: AbortSignal;
}

/**
 * Starts `count` clients that list, then watch from the list's resourceVersion, reconnecting from
 * the last resourceVersion they saw when the stream ends and relisting on 410 Gone, until
 * `signal` aborts. Returns the watchers (filled as events arrive) and a promise of their end.
 */
export async function startWatchers(o: WatchersOptions): Promise<{ watchers: Watcher[]; done: Promise<void> }> {
  // The first list at resourceVersion=0 (served from a replica's cache), a relist after 410
  // consistent, as client-go's reflector does.
  const list = async (first = false) => {
    const rv0 = first ? '&resourceVersion=0' : '';
    const r = await o.client.call(o.port, 'GET', `${o.base}?labelSelector=${o.selector}${rv0}`);
    if (r.status !== 200) throw new Error(`list answered ${r.status}`);
    const items = (r.body?.items ?? []) as { metadata: { name: string } }[];
    const meta = r.body?.metadata as { resourceVersion: string };
    return { listRv: BigInt(meta.resourceVersion), listed: items.map((i) => i.metadata.name), events: [] };
  };
  // Every watch request listens on the one signal.
  setMaxListeners(o.count + 10, o.signal);
  const watchers: Watcher[] = [];
  // Lists ten at a time: a hundred lists at once through the balancer are not the point.
  while (watchers.length < o.count) {
    const batch = Math.min(10, o.count - watchers.length);
    const lists = await Promise.all(Array.from({ length: batch }, () => list(true)));
    for (const l of lists) watchers.push({ segments: [l], reconnects: 0, relists: 0, resumedAt: [] });
  }
  const run = async (w: Watcher) => {
    let segment = w.segments[0] as WatchSegment;
    let rv = segment.listRv;
    while (!o.signal.aborted) {
      let gone = false;
      await o.client.watch(
        o.port,
        `${o.base}?watch=true&labelSelector=${o.selector}&resourceVersion=${rv}`,
        (e) => {
          if (e.type === 'ERROR') {
            gone = e.object.code === 410;
            return;
          }
          const version = e.object.metadata?.resourceVersion;
          if (!version) return;
          segment.events.push({
            type: e.type as Change['type'],
            name: e.object.metadata?.name ?? '',
            rv: BigInt(version),
          });
          rv = BigInt(version);
        },
        o.signal,
      );
      if (o.signal.aborted) break;
      w.reconnects++;
      w.resumedAt.push(String(rv));
      if (gone) {
        const listed = await list(false).catch(() => undefined);
        if (!listed) continue;
        w.relists++;
        segment = listed;
        w.segments.push(segment);
        rv = segment.listRv;
      }
      await sleep(50);
    }
  };
  return { watchers, done: Promise.all(watchers.map(run)).then(() => undefined) };
}

/** Names an object had seen by `w` at its end: its last list plus what the events after it added or deleted. */
export function namesSeen(w: Watcher): Set<string> {
  const last = w.segments[w.segments.length - 1] as WatchSegment;
  const names = new Set(last.listed);
  for (const e of last.events) {
    if (e.type === 'DELETED') names.delete(e.name);
    else names.add(e.name);
  }
  return names;
}

/**
 * The authoritative history of the keys starting with `keyPrefix` from revision `from` on, read
 * from etcd with a watch from that revision, up to etcd's current revision, and the state of
 * those keys at revision `from - 1`. Object names are the last key segment.
 */
export async function etcdHistory(
  endpoints: readonly string[],
  keyPrefix: string,
  from: bigint,
): Promise<{ changes: Change[]; before: string[]; revision: bigint }> {
  const client = new Etcd3({ hosts: [...endpoints] });
  try {
    const nameOf = (kv: IKeyValue) => kv.key.toString('utf8').slice(keyPrefix.lastIndexOf('/') + 1);
    const head = await client.getAll().prefix(keyPrefix).exec();
    const revision = BigInt(head.header.revision);
    const past = await client
      .getAll()
      .prefix(keyPrefix)
      .revision(String(from - 1n))
      .exec();
    const before = past.kvs.map(nameOf);
    const changes: Change[] = [];
    // The newest change under the prefix (the test deletes none): the history ends there. A
    // watch response's header revision cannot be used: etcd sends catch-up events in batches
    // whose header already carries the current revision.
    const last = head.kvs.reduce((m, kv) => (BigInt(kv.mod_revision) > m ? BigInt(kv.mod_revision) : m), 0n);
    if (last < from) return { changes, before, revision };
    const watcher = await client.watch().prefix(keyPrefix).startRevision(String(from)).create();
    const timer = new AbortController();
    try {
      const reached = new Promise<void>((resolve, reject) => {
        watcher.on('data', (res) => {
          for (const e of res.events) {
            const rv = BigInt(e.kv.mod_revision);
            const type = e.type === 'Delete' ? 'DELETED' : e.kv.version === '1' ? 'ADDED' : 'MODIFIED';
            changes.push({ type, name: nameOf(e.kv), rv });
            if (rv >= last) resolve();
          }
        });
        watcher.on('error', reject);
      });
      await Promise.race([
        reached,
        sleep(15_000, undefined, { signal: timer.signal }).then(() => {
          throw new Error(`etcd history of ${keyPrefix} did not reach revision ${last}`);
        }),
      ]);
    } finally {
      timer.abort();
      await watcher.cancel();
    }
    return { changes: changes.filter((c) => c.rv <= revision), before, revision };
  } finally {
    client.close();
  }
}

/**
 * Differences between what a watcher saw and the etcd history (empty when it saw exactly that
 * history): every segment's list equals the names stored at its list revision, and its events
 * equal etcd's changes after that revision, in order, none missing or repeated; only the last
 * segment must reach the end of the history.
 */
export function replayDifferences(
  w: Watcher,
  history: { changes: readonly Change[]; before: readonly string[]; from: bigint },
): string[] {
  const problems: string[] = [];
  const key = (c: Change) => `${c.type} ${c.name}@${c.rv}`;
  for (const [i, s] of w.segments.entries()) {
    if (s.listRv < history.from - 1n) {
      problems.push(`segment ${i} lists at ${s.listRv}, before the history start ${history.from}`);
      continue;
    }
    const stored = new Set(history.before);
    for (const c of history.changes) {
      if (c.rv > s.listRv) break;
      if (c.type === 'DELETED') stored.delete(c.name);
      else stored.add(c.name);
    }
    const listed = [...s.listed].sort();
    const expectedList = [...stored].sort();
    if (listed.join(',') !== expectedList.join(',')) {
      problems.push(`segment ${i}: list at ${s.listRv} has ${listed.length} names, etcd had ${expectedList.length}`);
    }
    const expected = history.changes.filter((c) => c.rv > s.listRv).map(key);
    const seen = s.events.map(key);
    const isLast = i === w.segments.length - 1;
    const compared = isLast ? expected : expected.slice(0, seen.length);
    const at = compared.findIndex((e, k) => seen[k] !== e);
    if (at >= 0 || seen.length !== compared.length) {
      const k = at >= 0 ? at : Math.min(seen.length, compared.length);
      problems.push(
        `segment ${i} from ${s.listRv}: event ${k} is ${seen[k] ?? '(none)'}, etcd has ${compared[k] ?? '(none)'} ` +
          `(${seen.length} seen, ${compared.length} expected)`,
      );
    }
  }
  return problems;
}

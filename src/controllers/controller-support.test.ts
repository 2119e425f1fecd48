import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { Informer } from '../client/informer/informer.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { ControllerContext } from './controller-descriptor.js';
import {
  controllerRefOf,
  controllerRefOfKind,
  isNamespaceTerminating,
  newControllerRef,
  newKeyQueue,
  objectKey,
  runKeyedLoop,
  secretBytes,
  secretText,
  splitKey,
  startResync,
  timeMs,
  waitForInformers,
} from './controller-support.js';

/** An informer whose first list is delivered when `deliver()` is called. */
function pendingInformer(): { informer: Informer; deliver: () => void } {
  let deliver = () => {};
  const listed = new Promise<void>((resolve) => {
    deliver = resolve;
  });
  const informer = { synced: () => listed } as unknown as Informer;
  return { informer, deliver };
}

const syncedInformer = (objects: ApiObject[] = []): Informer =>
  ({ synced: () => Promise.resolve(), list: () => objects }) as unknown as Informer;

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What runKeyedLoop reads of a controller context; the rest is not used by it. */
function loopContext(signal: AbortSignal, minResyncPeriodMs: number, warnings: unknown[] = []): ControllerContext {
  const logger: Logger = { info() {}, warn: (...a: unknown[]) => warnings.push(a), error() {} };
  return { signal, minResyncPeriodMs, logger, clock: systemClock, config: {} } as unknown as ControllerContext;
}

describe('controller support: keys', () => {
  const cases: [string | undefined, string, string][] = [
    ['default', 'web', 'default/web'],
    [undefined, 'node-1', '/node-1'],
    ['ns', 'a/b', 'ns/a/b'],
  ];
  for (const [namespace, name, key] of cases) {
    it(`${key} round-trips`, () => {
      assert.equal(objectKey({ metadata: { namespace, name } }), key);
      assert.deepEqual(splitKey(key), { namespace: namespace ?? '', name });
    });
  }
});

describe('controller support: controller references', () => {
  const job: ApiObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { namespace: 'ns', name: 'pi', uid: 'u-1' },
  };
  const ref = newControllerRef(job, 'batch/v1', 'Job');

  it('newControllerRef names the owner as controller, blocking its deletion', () => {
    assert.deepEqual(ref, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'pi',
      uid: 'u-1',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('finds the controlling reference, by kind and group when asked', () => {
    const pod = (...refs: ApiObject['metadata']['ownerReferences'][]) =>
      ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences: refs.flat() } }) as ApiObject;
    const other = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-2' };
    const cases: [string, ApiObject, string | undefined, string | undefined][] = [
      ['controller among others', pod([other, ref]), 'u-1', 'u-1'],
      ['no controller', pod([other]), undefined, undefined],
      ['no references', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, undefined, undefined],
      ['another kind', pod([{ ...other, controller: true }]), 'u-2', undefined],
      ['another group', pod([{ ...ref, apiVersion: 'example.com/v1' }]), 'u-1', undefined],
      ['core group only when asked', pod([{ ...ref, apiVersion: 'v1' }]), 'u-1', undefined],
    ];
    for (const [what, obj, anyUid, jobUid] of cases) {
      assert.equal(controllerRefOf(obj)?.uid, anyUid, what);
      assert.equal(controllerRefOfKind(obj, 'batch', 'Job')?.uid, jobUid, what);
    }
    assert.equal(controllerRefOfKind(pod([{ ...ref, apiVersion: 'v1' }]), '', 'Job')?.uid, 'u-1');
  });
});

describe('controller support: failures and values', () => {
  it('recognises a terminating namespace only by its 403 cause', () => {
    const terminating = new StatusError(403, 'Forbidden', 'namespace is terminating', {
      causes: [{ reason: 'NamespaceTerminating', message: 'x', field: 'metadata.namespace' }],
    });
    const cases: [unknown, boolean][] = [
      [terminating, true],
      [new StatusError(403, 'Forbidden', 'forbidden'), false],
      [new StatusError(404, 'NotFound', 'gone'), false],
      [new Error('NamespaceTerminating'), false],
    ];
    for (const [e, want] of cases) assert.equal(isNamespaceTerminating(e), want, String(e));
  });

  it('reads RFC 3339 times, undefined for anything else', () => {
    const cases: [unknown, number | undefined][] = [
      ['2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
      ['2026-01-01T00:00:00.250000Z', Date.UTC(2026, 0, 1) + 250],
      ['', undefined],
      ['yesterday', undefined],
      [undefined, undefined],
      [1767225600000, undefined],
    ];
    for (const [t, want] of cases) assert.equal(timeMs(t), want, String(t));
  });

  it('decodes Secret data', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { token: Buffer.from('abc').toString('base64'), n: 3 },
    } as ApiObject;
    assert.equal(secretText(secret, 'token'), 'abc');
    assert.deepEqual(secretBytes(secret, 'token'), Buffer.from('abc'));
    assert.equal(secretText(secret, 'absent'), '');
    assert.equal(secretBytes(secret, 'n'), undefined);
    assert.equal(secretBytes({ ...secret, data: undefined } as ApiObject, 'token'), undefined);
  });
});

describe('controller support: waiting for informers', () => {
  it('resolves true once every informer has listed', async () => {
    const a = pendingInformer();
    const b = pendingInformer();
    const done = waitForInformers([a.informer, b.informer], new AbortController().signal);
    let settled = false;
    void done.then(() => {
      settled = true;
    });
    a.deliver();
    await delay(5);
    assert.equal(settled, false);
    b.deliver();
    assert.equal(await done, true);
  });

  it('resolves false when the controller stops first, and leaves no listener', async () => {
    const stop = new AbortController();
    let listeners = 0;
    const signal = stop.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...a: Parameters<typeof add>) => {
      listeners++;
      add(...a);
    }) as typeof add;
    signal.removeEventListener = ((...a: Parameters<typeof remove>) => {
      listeners--;
      remove(...a);
    }) as typeof remove;
    const done = waitForInformers([pendingInformer().informer], signal);
    stop.abort();
    assert.equal(await done, false);
    assert.equal(listeners, 0);
    assert.equal(await waitForInformers([syncedInformer()], signal), false, 'already stopped');
  });

  it('resolves false at once when a resource is not served', async () => {
    assert.equal(await waitForInformers([syncedInformer(), undefined], new AbortController().signal), false);
  });
});

describe('controller support: resync', () => {
  it('resyncs every period to twice the period until the signal aborts', async () => {
    const stop = new AbortController();
    const at: number[] = [];
    const start = performance.now();
    startResync(20, stop.signal, () => at.push(performance.now() - start));
    await delay(130);
    stop.abort();
    const n = at.length;
    assert.ok(n >= 2 && n <= 7, `resyncs in 130 ms: ${n}`);
    for (let i = 0; i < at.length; i++) assert.ok(at[i] >= 19 * (i + 1), `resync ${i} at ${at[i]} ms`);
    await delay(60);
    assert.equal(at.length, n, 'no resync after abort');
  });

  it('never resyncs with a period of 0 or less, or when already stopped', async () => {
    const stopped = new AbortController();
    stopped.abort();
    let calls = 0;
    startResync(0, new AbortController().signal, () => calls++);
    startResync(-5, new AbortController().signal, () => calls++);
    startResync(5, stopped.signal, () => calls++);
    await delay(30);
    assert.equal(calls, 0);
  });
});

describe('controller support: keyed loop', () => {
  it('waits for the informers, queues every key, resyncs and retries failed keys', async () => {
    const stop = new AbortController();
    const informer = pendingInformer();
    const objects: ApiObject[] = [
      { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'a', name: 'one' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'b', name: 'two' } },
    ];
    const warnings: unknown[] = [];
    const ctx = loopContext(stop.signal, 20, warnings);
    const seen: string[] = [];
    let failedOnce = false;
    const loop = runKeyedLoop(ctx, {
      name: 'test-controller',
      queue: newKeyQueue(ctx),
      informers: [informer.informer],
      workers: 2,
      resyncKeys: () => objects.map(objectKey),
      process: async (key) => {
        seen.push(key);
        if (key === 'b/two' && !failedOnce) {
          failedOnce = true;
          throw new Error('boom');
        }
      },
    });
    await delay(10);
    assert.deepEqual(seen, [], 'nothing before the informers listed');
    informer.deliver();
    await delay(150);
    stop.abort();
    await loop;
    assert.ok(seen.filter((k) => k === 'a/one').length >= 2, `resynced: ${seen.join(' ')}`);
    assert.ok(seen.filter((k) => k === 'b/two').length >= 2, `retried: ${seen.join(' ')}`);
    assert.equal(warnings.length, 1);
    assert.match(JSON.stringify(warnings[0]), /test-controller: sync failed.*b\/two.*boom/);
  });

  it('returns when the controller stops before the informers list', async () => {
    const stop = new AbortController();
    const ctx = loopContext(stop.signal, 20);
    const loop = runKeyedLoop(ctx, {
      name: 'idle',
      queue: newKeyQueue(ctx),
      informers: [pendingInformer().informer],
      workers: 1,
      resyncKeys: () => ['x/y'],
      process: async () => assert.fail('processed while not synced'),
    });
    stop.abort();
    await loop;
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import { alwaysAllow } from '../authz/index.js';
import { ResourceInformer } from '../client/informer/resource-informer.js';
import { watchStreamOf } from '../registry/generic/watch-stream.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import type { ResourceStore, WatchEvent } from '../registry/types.js';
import { silentLogger } from '../util/logger.js';
import { ControllerClient, informerIdentity } from './controller-client.js';
import { inProcessResourceClient } from './in-process-api-client.js';
import { waitFor } from './testing/controller-fixture.js';

/**
 * The real registry, with a fault switch: `breakWatch()` ends the running watch with an ERROR
 * event (410 Gone), as a compacted or expired watch does.
 */
function withBreakableWatch(store: ResourceStore): ResourceStore & { breakWatch(): void; watches: number } {
  let breakCurrent: (() => void) | undefined;
  const wrapper = Object.create(store) as ResourceStore & { breakWatch(): void; watches: number };
  wrapper.watches = 0;
  wrapper.breakWatch = () => breakCurrent?.();
  wrapper.watch = async (ctx, o) => {
    wrapper.watches++;
    const inner = await store.watch(ctx, o);
    let broken: (() => void) | undefined;
    const brokenPromise = new Promise<'broken'>((resolve) => {
      broken = () => resolve('broken');
    });
    breakCurrent = broken;
    async function* events(): AsyncGenerator<WatchEvent> {
      const it = inner[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await Promise.race([it.next(), brokenPromise]);
          if (next === 'broken') {
            yield {
              type: 'ERROR',
              object: { apiVersion: 'v1', kind: 'Status', metadata: {}, code: 410, reason: 'Expired', message: 'gone' },
            };
            return;
          }
          if (next.done) return;
          yield next.value;
        }
      } finally {
        inner.stop();
      }
    }
    return watchStreamOf(events(), () => inner.stop());
  };
  return wrapper;
}

describe('resource informer over the in-process client', () => {
  it('lists, watches, and after a broken watch re-lists, delivering what it missed', async () => {
    const f = await registryFixture();
    await f.createNamespace('a');
    await f.createNamespace('b');
    const cms = f.registry('configmaps');
    const create = (ns: string, name: string) =>
      cms.create(f.ctx(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, { dryRun: false });
    await create('a', 'one');
    await create('b', 'two');
    const served = f.resources.all().find((r) => r.def.resource === 'configmaps')!;
    const store = withBreakableWatch(cms);
    const ac = new AbortController();
    const informer = new ResourceInformer({
      client: inProcessResourceClient(
        { ...served, store },
        new ControllerClient(informerIdentity(ORCH_DOMAIN), alwaysAllow),
      ),
      logger: silentLogger,
      signal: ac.signal,
    });
    const seen: string[] = [];
    const name = (o: ApiObject) => `${o.metadata.namespace}/${o.metadata.name}`;
    informer.addHandlers({
      onAdd: (o) => seen.push(`add ${name(o)}`),
      onUpdate: (_old, o) => seen.push(`update ${name(o)}`),
      onDelete: (o) => seen.push(`delete ${name(o)}`),
    });
    informer.start();
    await informer.synced();
    assert.deepEqual(seen.sort(), ['add a/one', 'add b/two']);
    assert.equal(informer.list('a').length, 1);

    await create('a', 'three');
    await waitFor('the watch event', () => seen.includes('add a/three'));

    store.breakWatch();
    // While the watch is down: a delete and an update it will not see as events.
    await cms.delete(f.ctx('a'), 'one', { dryRun: false });
    await cms.update(
      f.ctx('b'),
      'two',
      { retryOnConflict: true, compute: (live) => ({ ...live!, data: { x: 'y' } }) },
      { dryRun: false },
    );
    await waitFor('the re-list', () => seen.includes('delete a/one') && seen.includes('update b/two'));
    assert.ok(store.watches >= 2);
    assert.equal(informer.get('a', 'one'), undefined);
    assert.deepEqual(informer.get('b', 'two')?.data, { x: 'y' });

    ac.abort();
    await informer.stopped();
  });

  it('leaves out of a watched add the handlers that say, from the shared object, they ignore it', async () => {
    const ac = new AbortController();
    const f = await registryFixture({ watchCache: true, signal: ac.signal });
    await f.createNamespace('a');
    const cms = f.registry('configmaps');
    const served = f.resources.all().find((r) => r.def.resource === 'configmaps')!;
    const informer = new ResourceInformer({
      client: inProcessResourceClient(served, new ControllerClient(informerIdentity(ORCH_DOMAIN), alwaysAllow)),
      logger: silentLogger,
      signal: ac.signal,
    });
    const picky: string[] = [];
    const all: string[] = [];
    const mentioned: boolean[] = [];
    informer.addHandlers({
      onAdd: (o) => picky.push(o.metadata.name ?? ''),
      ignoresAdd: (shared) => {
        const says = shared.mentions?.('"keep"');
        if (says !== undefined) mentioned.push(says);
        return says === false;
      },
    });
    informer.addHandlers({ onAdd: (o) => all.push(o.metadata.name ?? '') });
    informer.start();
    await informer.synced();
    const cases: { name: string; data?: Record<string, string>; wanted: boolean }[] = [
      { name: 'plain', wanted: false },
      { name: 'keyed', data: { keep: 'yes' }, wanted: true },
      { name: 'in-a-value', data: { note: 'keep' }, wanted: true },
      { name: 'prefix-only', data: { keeper: 'x' }, wanted: false },
    ];
    for (const c of cases) {
      await cms.create(
        f.ctx('a'),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: c.name }, ...(c.data ? { data: c.data } : {}) },
        { dryRun: false },
      );
    }
    await waitFor('every add', () => all.length === cases.length);
    assert.deepEqual(
      all,
      cases.map((c) => c.name),
      'a handler without the test sees every add',
    );
    assert.deepEqual(
      picky,
      cases.filter((c) => c.wanted).map((c) => c.name),
    );
    assert.equal(mentioned.length, cases.length, 'the objects of the watch cache tell without decoding');
    assert.equal(informer.list('a').length, cases.length, 'ignored adds are still cached');
    ac.abort();
    await informer.stopped();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import { FORCE_LIVE_LOOKUP_MS, namespaceLifecycle } from './namespace-lifecycle.js';

const signal = new AbortController().signal;

function ns(name: string, phase: 'Active' | 'Terminating'): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, ...(phase === 'Terminating' ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    status: { phase },
  };
}

function attrs(operation: Operation, kind: 'ConfigMap' | 'Namespace', namespace: string, name: string) {
  const resource = kind === 'Namespace' ? 'namespaces' : 'configmaps';
  return {
    kind: { group: '', version: 'v1', kind },
    resource: { group: '', version: 'v1', resource },
    subresource: '',
    namespace,
    name,
    operation,
    object: undefined,
    oldObject: undefined,
    user: { name: 'u', groups: [] },
    dryRun: false,
    options: undefined,
    warnings: { add: () => {} },
  } satisfies AdmissionAttributes;
}

/** Two views of the namespaces, as the server has them: the watch cache (may lag) and the store. */
function views() {
  const cache = new Map<string, ApiObject>();
  const store = new Map<string, ApiObject>();
  const reads = { cache: 0, store: 0 };
  let clock = 1_000_000;
  const plugin = namespaceLifecycle({
    immortal: ['default'],
    cachedLookup: async (name) => {
      reads.cache++;
      return cache.get(name);
    },
    lookup: async (name) => {
      reads.store++;
      return store.get(name);
    },
    now: () => clock,
  });
  const create = async (namespace: string) => {
    try {
      await plugin.validate?.(attrs('CREATE', 'ConfigMap', namespace, 'c'), signal);
      return 'admitted';
    } catch (e) {
      assert.ok(e instanceof StatusError);
      return `${e.code} ${e.message}`;
    }
  };
  return { cache, store, reads, plugin, create, advance: (ms: number) => (clock += ms) };
}

describe('NamespaceLifecycle: cache first, the store when the cache may lag', () => {
  it('admits from the cache alone when it has the namespace active', async () => {
    const v = views();
    v.cache.set('a', ns('a', 'Active'));
    v.store.set('a', ns('a', 'Active'));
    assert.equal(await v.create('a'), 'admitted');
    assert.deepEqual(v.reads, { cache: 1, store: 0 });
  });

  it('reads the store for a namespace the cache does not have yet, and 404s one neither has', async () => {
    const v = views();
    v.store.set('new', ns('new', 'Active'));
    assert.equal(await v.create('new'), 'admitted');
    assert.deepEqual(v.reads, { cache: 1, store: 1 });
    assert.equal(await v.create('missing'), '404 namespaces "missing" not found');
  });

  it('refuses new content in a namespace the cache shows terminating, without reading the store', async () => {
    const v = views();
    v.cache.set('t', ns('t', 'Terminating'));
    assert.match(await v.create('t'), /^403 .*because it is being terminated$/);
    assert.equal(v.reads.store, 0);
  });

  it('reads the store for 30 s after a namespace DELETE while the cache still shows it active', async () => {
    const v = views();
    v.cache.set('d', ns('d', 'Active'));
    v.store.set('d', ns('d', 'Terminating'));
    await v.plugin.validate?.(attrs('DELETE', 'Namespace', '', 'd'), signal);
    assert.match(await v.create('d'), /^403 .*because it is being terminated$/);
    assert.equal(v.reads.store, 1);
    v.advance(FORCE_LIVE_LOOKUP_MS + 1);
    // Past the window the cache is trusted again (kube's forceLiveLookupTTL).
    assert.equal(await v.create('d'), 'admitted');
    assert.equal(v.reads.store, 1);
  });

  it('refuses to delete an immortal namespace and records no live lookup for it', async () => {
    const v = views();
    await assert.rejects(v.plugin.validate?.(attrs('DELETE', 'Namespace', '', 'default'), signal) as Promise<void>, {
      code: 403,
    });
    v.cache.set('default', ns('default', 'Active'));
    assert.equal(await v.create('default'), 'admitted');
    assert.equal(v.reads.store, 0);
  });
});

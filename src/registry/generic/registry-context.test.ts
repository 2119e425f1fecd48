import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyScheme } from '../../storage/keys.js';
import { keyFor, LastKey, type RegistryContext } from './registry-context.js';

describe('LastKey', () => {
  const rc = (namespaced: boolean) =>
    ({
      def: { group: '', resource: 'configmaps', namespaced },
      keys: keyScheme('/registry'),
    }) as unknown as RegistryContext;

  it('gives the key keyFor gives, for every namespace and name in turn', () => {
    const keys = new LastKey();
    const ns = rc(true);
    const cases: { namespace: string; name: string }[] = [
      { namespace: 'a', name: 'x' },
      { namespace: 'a', name: 'x' },
      { namespace: 'a', name: 'y' },
      { namespace: 'b', name: 'y' },
      { namespace: '', name: 'y' },
      { namespace: 'a', name: 'x' },
    ];
    for (const c of cases) assert.equal(keys.of(ns, c.namespace, c.name), keyFor(ns, c.namespace, c.name));
    const cluster = new LastKey();
    assert.equal(cluster.of(rc(false), 'a', 'x'), keyFor(rc(false), 'a', 'x'));
  });
});

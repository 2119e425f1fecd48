import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { leaseResource } from './lease.js';

function lease(spec: Record<string, unknown>, name = 'orch-controller-manager'): ApiObject {
  return { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name, namespace: 'orch-system' }, spec };
}

describe('Lease', () => {
  const def = leaseResource();
  const create = (obj: ApiObject) => {
    def.strategy.prepareForCreate(obj);
    return def.strategy.validateCreate(obj).map(formatFieldError);
  };

  it('accepts a leader-election lease and stores MicroTime with microseconds', () => {
    const obj = lease({
      holderIdentity: 'node-1_abc',
      leaseDurationSeconds: 15,
      acquireTime: '2024-05-06T07:08:09Z',
      renewTime: '2024-05-06T09:08:09.123+02:00',
      leaseTransitions: 0,
    });
    assert.deepEqual(create(obj), []);
    assert.deepEqual(obj.spec, {
      holderIdentity: 'node-1_abc',
      leaseDurationSeconds: 15,
      acquireTime: '2024-05-06T07:08:09.000000Z',
      renewTime: '2024-05-06T07:08:09.123000Z',
      leaseTransitions: 0,
    });
  });

  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'duration and transitions',
      spec: { leaseDurationSeconds: 0, leaseTransitions: -1 },
      want: [
        'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
        'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
      ],
    },
    {
      name: 'int32 types',
      spec: { leaseDurationSeconds: '15', leaseTransitions: 1.5 },
      want: [
        'spec.leaseDurationSeconds: Invalid value: "string": spec.leaseDurationSeconds in body must be of type integer: "string"',
        'spec.leaseTransitions: Invalid value: "number": spec.leaseTransitions in body must be of type integer: "number"',
      ],
    },
    {
      name: 'MicroTime format',
      spec: { renewTime: '2024-05-06 07:08:09' },
      want: [
        'spec.renewTime: Invalid value: "2024-05-06 07:08:09": spec.renewTime in body must be of type date-time: "2024-05-06 07:08:09"',
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(create(lease(c.spec)), c.want));

  it('drops strategy and preferredHolder while CoordinatedLeaderElection is off', () => {
    const obj = lease({ holderIdentity: 'a', strategy: 'Bogus', preferredHolder: 'b' });
    assert.deepEqual(create(obj), []);
    assert.deepEqual(obj.spec, { holderIdentity: 'a' });
  });

  it('keeps fields already in use on update while the gate is off', () => {
    const old = lease({ strategy: 'OldestEmulationVersion' });
    old.metadata.resourceVersion = '1';
    const next = lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'x' });
    next.metadata.resourceVersion = '1';
    def.strategy.prepareForUpdate(next, old);
    assert.deepEqual(next.spec, { strategy: 'OldestEmulationVersion' });
    assert.deepEqual(def.strategy.validateUpdate(next, old), []);
  });

  it('validates strategy and preferredHolder when the gate is on', () => {
    const gated = leaseResource({ coordinatedLeaderElection: true });
    const check = (spec: Record<string, unknown>) => {
      const obj = lease(spec);
      gated.strategy.prepareForCreate(obj);
      return gated.strategy.validateCreate(obj).map(formatFieldError);
    };
    assert.deepEqual(check({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' }), []);
    assert.deepEqual(check({ strategy: 'example.com/mine' }), []);
    assert.deepEqual(check({ strategy: 'Random' }), [
      'spec.strategy.strategy: Unsupported value: "Random": supported values: "OldestEmulationVersion"',
    ]);
    assert.deepEqual(check({ preferredHolder: 'b' }), [
      'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ]);
  });

  it('names are DNS subdomains and namespaces are required', () => {
    const obj: ApiObject = { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'UPPER' } };
    const errs = create(obj);
    assert.equal(errs.length, 2);
    assert.match(errs[0], /^metadata\.name: Invalid value: "UPPER": a lowercase RFC 1123 subdomain/);
    assert.equal(errs[1], 'metadata.namespace: Required value');
  });

  it('is coordination.orch.io/v1 leases, created on update', () => {
    assert.deepEqual(
      [def.group, def.version, def.resource, def.singular],
      ['coordination.orch.io', 'v1', 'leases', 'lease'],
    );
    assert.equal(def.allowCreateOnUpdate, true);
    assert.equal(def.hasGeneration, false);
    assert.deepEqual(def.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });
});

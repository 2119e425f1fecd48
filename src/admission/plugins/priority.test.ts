import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import { AdmissionChain } from '../admission-chain.js';
import { priorityPlugin } from './priority.js';

const signal = new AbortController().signal;

function pc(name: string, value: number, extra: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: 'scheduling.example.com/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    preemptionPolicy: 'PreemptLowerPriority',
    ...extra,
  };
}

function pod(spec: Record<string, unknown>, meta: Record<string, unknown> = { name: 'p' }): ApiObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', ...meta }, spec };
}

function attrs(operation: Operation, object: ApiObject, oldObject?: ApiObject, subresource = ''): AdmissionAttributes {
  return {
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource,
    namespace: 'default',
    name: operation === 'CREATE' ? (object.metadata.name ?? '') : 'p',
    operation,
    object,
    oldObject,
    user: { name: 'u', groups: [] },
    dryRun: false,
    options: undefined,
    warnings: { add: () => {} },
  };
}

function chain(classes: ApiObject[]): AdmissionChain {
  return new AdmissionChain([priorityPlugin({ group: 'scheduling.example.com', list: async () => classes })]);
}

describe('Priority admission of pods', () => {
  const cases: {
    name: string;
    classes: ApiObject[];
    spec: Record<string, unknown>;
    want: Record<string, unknown>;
  }[] = [
    {
      name: 'no class and no default: priority 0, PreemptLowerPriority',
      classes: [pc('high', 1000)],
      spec: {},
      want: { priority: 0, preemptionPolicy: 'PreemptLowerPriority' },
    },
    {
      name: 'no class: the global default with the lowest value',
      classes: [pc('a', 50, { globalDefault: true }), pc('b', 10, { globalDefault: true, preemptionPolicy: 'Never' })],
      spec: {},
      want: { priorityClassName: 'b', priority: 10, preemptionPolicy: 'Never' },
    },
    {
      name: 'a named class',
      classes: [pc('high', 1000)],
      spec: { priorityClassName: 'high' },
      want: { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' },
    },
    {
      name: 'the priority the class computes may be given',
      classes: [pc('high', 1000)],
      spec: { priorityClassName: 'high', priority: 1000 },
      want: { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const obj = pod({ ...c.spec });
      await chain(c.classes).admit(attrs('CREATE', obj), signal);
      assert.deepEqual(obj.spec, c.want);
    });
  }

  const refusals: { name: string; spec: Record<string, unknown>; meta?: Record<string, unknown>; message: string }[] = [
    {
      name: 'an unknown class',
      spec: { priorityClassName: 'nope' },
      message: 'pods "p" is forbidden: no PriorityClass with name nope was found',
    },
    {
      name: 'a priority other than the class computes',
      spec: { priorityClassName: 'high', priority: 5 },
      message:
        'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    },
    {
      name: 'a preemption policy other than the class has',
      spec: { priorityClassName: 'high', preemptionPolicy: 'Never' },
      message:
        'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    },
    {
      name: 'a priority on a pod whose name is to be generated names the prefix',
      spec: { priority: 7 },
      meta: { generateName: 'web-' },
      message:
        'pods "web-" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name} with a 403`, async () => {
      await assert.rejects(chain([pc('high', 1000)]).admit(attrs('CREATE', pod(r.spec, r.meta)), signal), {
        code: 403,
        reason: 'Forbidden',
        message: r.message,
      });
    });
  }

  it('keeps the old priority and policy on update when the new pod omits them', async () => {
    const old = pod({ priority: 1000, preemptionPolicy: 'Never' });
    const obj = pod({});
    await chain([]).admit(attrs('UPDATE', obj, old), signal);
    assert.deepEqual(obj.spec, { priority: 1000, preemptionPolicy: 'Never' });
  });

  it('leaves sub-resources alone', async () => {
    const obj = pod({});
    await chain([]).admit(attrs('CREATE', obj, undefined, 'binding'), signal);
    assert.deepEqual(obj.spec, {});
  });
});

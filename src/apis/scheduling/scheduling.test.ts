import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../meta/field-error.js';
import {
  defaultPriorityClass,
  type PriorityClass,
  validatePriorityClass,
  validatePriorityClassUpdate,
} from './priority-class-validation.js';
import { priorityClassTableColumns } from './scheduling-columns.js';
import { isSystemPriorityClassName, systemPriorityClassObjects } from './system-priority-classes.js';

function pc(name: string, fields: Partial<PriorityClass> = {}): PriorityClass {
  return { apiVersion: 'scheduling/v1', kind: 'PriorityClass', metadata: { name }, ...fields };
}

const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('PriorityClass rules', () => {
  const cases: { name: string; obj: PriorityClass; want: string[] }[] = [
    { name: 'an ordinary class', obj: pc('high', { value: 1000 }), want: [] },
    { name: 'the highest user value', obj: pc('top', { value: 1_000_000_000 }), want: [] },
    {
      name: 'a user value above the limit',
      obj: pc('too-high', { value: 1_000_000_001 }),
      want: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'],
    },
    { name: 'a system class with its value', obj: pc('system-node-critical', { value: 2000001000 }), want: [] },
    {
      name: 'a system class with another value',
      obj: pc('system-cluster-critical', { value: 5 }),
      want: [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000",
      ],
    },
    {
      name: 'a system class as global default',
      obj: pc('system-cluster-critical', { value: 2000000000, globalDefault: true }),
      want: [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
      ],
    },
    {
      name: 'an unknown system- name',
      obj: pc('system-mine', { value: 1 }),
      want: [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
      ],
    },
    {
      name: 'an unknown preemption policy',
      obj: pc('p', { value: 1, preemptionPolicy: 'Sometimes' }),
      want: ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    },
    {
      name: 'an empty preemption policy',
      obj: pc('p', { value: 1, preemptionPolicy: '' }),
      want: ['preemptionPolicy: Required value'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(messages(validatePriorityClass(c.obj)), c.want));
  }

  it('defaults the preemption policy and keeps a given one', () => {
    const a = pc('a', { value: 1 });
    defaultPriorityClass(a);
    assert.equal(a.preemptionPolicy, 'PreemptLowerPriority');
    const b = pc('b', { value: 1, preemptionPolicy: 'Never' });
    defaultPriorityClass(b);
    assert.equal(b.preemptionPolicy, 'Never');
  });

  it('refuses changes of value and preemption policy, all at once', () => {
    const old = pc('a', { value: 1, preemptionPolicy: 'Never' });
    const next = pc('a', { value: 2, preemptionPolicy: 'PreemptLowerPriority', description: 'changed' });
    assert.deepEqual(messages(validatePriorityClassUpdate(next, old)), [
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable',
    ]);
    assert.deepEqual(
      validatePriorityClassUpdate(pc('a', { value: 1, preemptionPolicy: 'Never', globalDefault: true }), old),
      [],
    );
  });
});

describe('system priority classes', () => {
  it('are the two kube classes with their values', () => {
    const objs = systemPriorityClassObjects('scheduling.example/v1');
    assert.deepEqual(
      objs.map((o) => [o.metadata.name, o.value]),
      [
        ['system-node-critical', 2000001000],
        ['system-cluster-critical', 2000000000],
      ],
    );
    for (const o of objs) assert.deepEqual(validatePriorityClass(o as PriorityClass), []);
    assert.ok(isSystemPriorityClassName('system-node-critical'));
    assert.ok(!isSystemPriorityClassName('system-other'));
  });
});

describe('PriorityClass columns', () => {
  it('show value, default flag, age and preemption policy', () => {
    const cols = priorityClassTableColumns({});
    assert.deepEqual(
      cols.columnDefinitions.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Value', 'integer'],
        ['Global-Default', 'boolean'],
        ['Age', 'string'],
        ['PreemptionPolicy', 'string'],
      ],
    );
    const now = new Date('2024-01-01T00:10:00Z');
    const obj = pc('x', { value: 7, globalDefault: true, preemptionPolicy: 'Never' });
    obj.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    assert.deepEqual(cols.cells(obj, now), ['x', 7, true, '10m', 'Never']);
    assert.deepEqual(cols.cells(pc('y'), now), ['y', 0, false, '<unknown>', '']);
  });
});

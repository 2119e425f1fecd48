import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventResource } from '../core/event.js';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { eventV1Resource } from './events-resources.js';

const def = eventV1Resource();
const GV = `${def.group}/v1`;

function valid(): ApiObject {
  return {
    apiVersion: GV,
    kind: 'Event',
    metadata: { name: 'pod-a.17', namespace: 'ns' },
    eventTime: '2026-01-02T03:04:05.123456Z',
    reportingController: 'example.com/agent',
    reportingInstance: 'agent-n1',
    action: 'Pulling',
    reason: 'Pulled',
    regarding: { kind: 'Pod', name: 'pod-a', namespace: 'ns', apiVersion: 'v1' },
    note: 'Pulled image',
    type: 'Normal',
  };
}

function create(obj: ApiObject): string[] {
  def.strategy.prepareForCreate(obj);
  return def.strategy.validateCreate(obj).map(formatFieldError);
}

function update(obj: ApiObject, old: ApiObject): string[] {
  def.strategy.prepareForCreate(old);
  def.strategy.prepareForUpdate(obj, old);
  return def.strategy.validateUpdate(obj, old).map(formatFieldError);
}

const createCases: readonly { name: string; change: (e: Record<string, unknown>) => void; errors: string[] }[] = [
  { name: 'a complete event', change: () => {}, errors: [] },
  {
    name: 'nothing but metadata',
    change: (e) => {
      for (const k of ['eventTime', 'reportingController', 'reportingInstance', 'action', 'reason', 'type', 'note'])
        delete e[k];
    },
    errors: ['eventTime: Required value', 'type: Invalid value: "": has invalid value: '],
  },
  {
    name: 'a new-style event without its reporting fields',
    change: (e) => {
      for (const k of ['reportingController', 'reportingInstance', 'action', 'reason']) delete e[k];
    },
    errors: [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ],
  },
  {
    name: 'a type other than Normal or Warning',
    change: (e) => {
      e.type = 'Error';
    },
    errors: ['type: Invalid value: "": has invalid value: Error'],
  },
  {
    name: 'the deprecated fields set',
    change: (e) => {
      e.deprecatedSource = { component: 'agent' };
      e.deprecatedFirstTimestamp = '2026-01-01T00:00:00Z';
      e.deprecatedLastTimestamp = '2026-01-01T00:00:01Z';
      e.deprecatedCount = 2;
    },
    errors: [
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ],
  },
  {
    name: 'a series of one without a last observed time',
    change: (e) => {
      e.series = { count: 1 };
    },
    errors: ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value'],
  },
  {
    name: 'overlong strings',
    change: (e) => {
      e.reportingInstance = 'i'.repeat(129);
      e.action = 'a'.repeat(129);
      e.reason = 'r'.repeat(129);
      e.note = 'n'.repeat(1025);
    },
    errors: [
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ],
  },
  {
    name: 'a cluster-scoped object regarded from a namespace other than default',
    change: (e) => {
      e.regarding = { kind: 'Node', name: 'n1' };
    },
    errors: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
  },
  {
    name: 'a name that is not a DNS subdomain',
    change: (e) => {
      (e.metadata as Record<string, unknown>).name = 'Pod_A';
    },
    errors: [
      "metadata.name: Invalid value: \"Pod_A\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  },
];

describe('events/v1 validation on create', () => {
  for (const c of createCases) {
    it(c.name, () => {
      const e = valid();
      c.change(e as Record<string, unknown>);
      assert.deepEqual(create(e), c.errors);
    });
  }

  it('leaves core/v1 creates with the legacy rules only', () => {
    const core = eventResource();
    const e: ApiObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'Pod_A', namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
      type: 'Error',
      count: 2,
      firstTimestamp: '2026-01-01T00:00:00Z',
    };
    core.strategy.prepareForCreate(e);
    assert.deepEqual(core.strategy.validateCreate(e), []);
  });
});

const updateCases: readonly { name: string; change: (e: Record<string, unknown>) => void; errors: string[] }[] = [
  {
    name: 'a new series',
    change: (e) => {
      e.series = { count: 2, lastObservedTime: '2026-01-02T03:05:00.000000Z' };
    },
    errors: [],
  },
  { name: 'a label', change: (e) => ((e.metadata as Record<string, unknown>).labels = { a: 'b' }), errors: [] },
  {
    name: 'an invalid series',
    change: (e) => {
      e.series = { count: 1, lastObservedTime: '2026-01-02T03:05:00.000000Z' };
    },
    errors: ['series.count: Invalid value: "": should be at least 2'],
  },
  {
    name: 'the immutable fields',
    change: (e) => {
      e.regarding = { kind: 'Pod', name: 'pod-b', namespace: 'ns', uid: 'u' };
      e.reason = 'Other';
      e.note = 'other';
      e.type = 'Warning';
      e.eventTime = '2026-01-02T03:04:06.000000Z';
      e.action = 'Other';
      e.related = { kind: 'Node', name: 'n1' };
      e.reportingController = 'other';
      e.reportingInstance = 'other-1';
    },
    errors: [
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"ns", Name:"pod-b", UID:"u", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "other": field is immutable',
      'type: Invalid value: "Warning": field is immutable',
      'eventTime: Invalid value: 2026-01-02 03:04:06 +0000 UTC: field is immutable',
      'action: Invalid value: "Other": field is immutable',
      'related: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n1", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reportingController: Invalid value: "other": field is immutable',
      'reportingInstance: Invalid value: "other-1": field is immutable',
    ],
  },
  {
    name: 'the deprecated fields',
    change: (e) => {
      e.deprecatedSource = { component: 'c' };
      e.deprecatedFirstTimestamp = '2026-01-01T00:00:00Z';
      e.deprecatedLastTimestamp = '2026-01-01T00:00:01Z';
      e.deprecatedCount = 5;
    },
    errors: [
      'source: Invalid value: core.EventSource{Component:"c", Host:""}: field is immutable',
      'firstTimestamp: Invalid value: 2026-01-01 00:00:00 +0000 UTC: field is immutable',
      'lastTimestamp: Invalid value: 2026-01-01 00:00:01 +0000 UTC: field is immutable',
      'count: Invalid value: 5: field is immutable',
    ],
  },
];

describe('events/v1 validation on update', () => {
  for (const c of updateCases) {
    it(c.name, () => {
      const old = valid();
      old.metadata.resourceVersion = '5';
      const next = structuredClone(old);
      c.change(next as Record<string, unknown>);
      assert.deepEqual(update(next, old), c.errors);
    });
  }
});

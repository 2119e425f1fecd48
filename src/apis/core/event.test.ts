import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { eventResource } from './event.js';

const def = eventResource();

function ev(fields: Record<string, unknown>, meta: Record<string, unknown> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'Event', metadata: { name: 'pod-a.17b', namespace: 'default', ...meta }, ...fields };
}

function create(obj: ApiObject): string[] {
  def.strategy.prepareForCreate(obj);
  return def.strategy.validateCreate(obj).map(formatFieldError);
}

describe('core/v1 Event validation', () => {
  const cases: { name: string; obj: ApiObject; want: string[] }[] = [
    {
      name: 'legacy event about an object in the same namespace',
      obj: ev({ involvedObject: { kind: 'Pod', name: 'a', namespace: 'default' }, reason: 'Started', count: 1 }),
      want: [],
    },
    {
      name: 'legacy event: namespaces must match',
      obj: ev({ involvedObject: { kind: 'Pod', name: 'a', namespace: 'other' } }),
      want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
    },
    {
      name: 'legacy event about a cluster-scoped object outside default',
      obj: ev({ involvedObject: { kind: 'Node', name: 'n' } }, { namespace: 'team' }),
      want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    },
    {
      name: 'new-style events need reporting fields, action and reason',
      obj: ev({
        involvedObject: { kind: 'Pod', name: 'a', namespace: 'default' },
        eventTime: '2024-01-01T00:00:00.123456Z',
      }),
      want: [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'reportingInstance: Required value',
        'action: Required value',
        'reason: Required value',
      ],
    },
    {
      name: 'new-style event limits',
      obj: ev({
        involvedObject: { kind: 'Node', name: 'n' },
        eventTime: '2024-01-01T00:00:00Z',
        reportingComponent: 'orch.io/scheduler',
        reportingInstance: 'i'.repeat(129),
        action: 'Bind',
        reason: 'Scheduled',
        message: 'm'.repeat(1025),
      }),
      want: [
        'reportingInstance: Invalid value: "": can have at most 128 characters',
        'message: Invalid value: "": can have at most 1024 characters',
      ],
    },
    {
      name: 'names only need to be safe path segments',
      obj: ev({ involvedObject: { namespace: 'default' } }, { name: 'Pod_A:Started' }),
      want: [],
    },
    {
      name: 'path-unsafe names are rejected by the generic check',
      obj: ev({ involvedObject: { namespace: 'default' } }, { name: 'a/b' }),
      want: ['metadata.name: Invalid value: "a/b": may not contain \'/\''],
    },
    {
      name: 'MicroTime is checked as a timestamp',
      obj: ev({ involvedObject: { namespace: 'default' }, eventTime: 'soon' }),
      want: ['eventTime: Invalid value: "soon": eventTime in body must be of type date-time: "soon"'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(create(c.obj), c.want));

  it('canonicalizes timestamps', () => {
    const obj = ev({
      involvedObject: { namespace: 'default' },
      firstTimestamp: '2024-01-01T01:02:03.999+01:00',
      series: { count: 2, lastObservedTime: '2024-01-01T00:00:00Z' },
    });
    def.strategy.prepareForCreate(obj);
    assert.equal(obj.firstTimestamp, '2024-01-01T00:02:03Z');
    assert.deepEqual(obj.series, { count: 2, lastObservedTime: '2024-01-01T00:00:00.000000Z' });
  });

  it('allows create on update and has short name ev', () => {
    assert.equal(def.allowCreateOnUpdate, true);
    assert.deepEqual(def.shortNames, ['ev']);
  });
});

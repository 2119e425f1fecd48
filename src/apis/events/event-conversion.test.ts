import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import { coreEventToV1, v1EventToCore } from './event-conversion.js';

const GV = 'events.example/v1';
const meta = { name: 'e', namespace: 'ns', uid: 'u-1', resourceVersion: '7' };
const ref = { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'p-1', apiVersion: 'v1', fieldPath: 'spec.containers{c}' };
const related = { kind: 'Node', name: 'n1', apiVersion: 'v1' };

interface Case {
  readonly name: string;
  readonly core: ApiObject;
  readonly v1: ApiObject;
}

/** Pairs of the two forms of one event, each as its view shows it. */
const CASES: readonly Case[] = [
  {
    name: 'every field set',
    core: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta,
      involvedObject: ref,
      reason: 'Started',
      message: 'Started container c',
      source: { component: 'node-agent', host: 'n1' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:05:00Z',
      count: 3,
      type: 'Normal',
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 4, lastObservedTime: '2026-01-01T00:06:00.000001Z' },
      action: 'Starting',
      related,
      reportingComponent: 'example.com/agent',
      reportingInstance: 'agent-n1',
    },
    v1: {
      apiVersion: GV,
      kind: 'Event',
      metadata: meta,
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 4, lastObservedTime: '2026-01-01T00:06:00.000001Z' },
      reportingController: 'example.com/agent',
      reportingInstance: 'agent-n1',
      action: 'Starting',
      reason: 'Started',
      regarding: ref,
      related,
      note: 'Started container c',
      type: 'Normal',
      deprecatedSource: { component: 'node-agent', host: 'n1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:05:00Z',
      deprecatedCount: 3,
    },
  },
  {
    name: 'an old-style core event (no reporting fields)',
    core: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta,
      involvedObject: ref,
      reason: 'Killing',
      message: 'Stopping',
      source: { component: 'node-agent' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:00Z',
      count: 1,
      type: 'Normal',
      reportingComponent: '',
      reportingInstance: '',
    },
    v1: {
      apiVersion: GV,
      kind: 'Event',
      metadata: meta,
      reason: 'Killing',
      regarding: ref,
      note: 'Stopping',
      type: 'Normal',
      deprecatedSource: { component: 'node-agent' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:00:00Z',
      deprecatedCount: 1,
    },
  },
  {
    name: 'a new-style event without deprecated fields',
    core: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta,
      involvedObject: {},
      reason: 'Elected',
      source: {},
      type: 'Warning',
      eventTime: '2026-01-01T00:00:00.000000Z',
      action: 'Electing',
      reportingComponent: 'ctl',
      reportingInstance: 'ctl-0',
    },
    v1: {
      apiVersion: GV,
      kind: 'Event',
      metadata: meta,
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'ctl',
      reportingInstance: 'ctl-0',
      action: 'Electing',
      reason: 'Elected',
      regarding: {},
      type: 'Warning',
      deprecatedSource: {},
    },
  },
];

describe('Event conversion between core/v1 and events/v1', () => {
  for (const c of CASES) {
    it(`${c.name}: core → v1`, () => {
      const v1 = coreEventToV1(c.core, GV);
      assert.deepEqual(v1, c.v1);
      assert.deepEqual(Object.keys(v1), Object.keys(c.v1), 'Go declaration order');
    });
    it(`${c.name}: v1 → core`, () => {
      const core = v1EventToCore(c.v1);
      assert.deepEqual(core, c.core);
      assert.deepEqual(Object.keys(core), Object.keys(c.core), 'Go declaration order');
    });
    it(`${c.name}: round trips are lossless both ways`, () => {
      assert.deepEqual(v1EventToCore(coreEventToV1(c.core, GV)), c.core);
      assert.deepEqual(coreEventToV1(v1EventToCore(c.v1), GV), c.v1);
    });
  }

  it("fills Go's zero values where the target never omits a field", () => {
    const bare = { apiVersion: GV, kind: 'Event', metadata: { name: 'x' } };
    assert.deepEqual(v1EventToCore(bare), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'x' },
      involvedObject: {},
      source: {},
      reportingComponent: '',
      reportingInstance: '',
    });
    assert.deepEqual(coreEventToV1({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'x' } }, GV), {
      apiVersion: GV,
      kind: 'Event',
      metadata: { name: 'x' },
      regarding: {},
      deprecatedSource: {},
    });
  });

  it('does not change its input', () => {
    const core = structuredClone(CASES[0]?.core) as ApiObject;
    const before = structuredClone(core);
    coreEventToV1(core, GV);
    v1EventToCore(coreEventToV1(core, GV));
    assert.deepEqual(core, before);
  });
});

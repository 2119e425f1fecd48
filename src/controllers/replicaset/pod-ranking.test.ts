import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../apis/core/pod-types.js';
import { Expectations } from './expectations.js';
import { rankPodsForDeletion } from './pod-ranking.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const COST = 'controller.example/pod-deletion-cost';

function pod(
  name: string,
  o: { node?: string; phase?: string; readySince?: string; cost?: string; restarts?: number; created?: string } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      uid: name,
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.cost ? { annotations: { [COST]: o.cost } } : {}),
    },
    spec: o.node ? { nodeName: o.node } : {},
    status: {
      phase: o.phase ?? 'Running',
      conditions: o.readySince ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.readySince }] : [],
      containerStatuses: [{ name: 'c', restartCount: o.restarts ?? 0 }],
    },
  };
}

const order = (pods: Pod[], related: Pod[] = pods) =>
  rankPodsForDeletion(pods, { relatedPods: related, nowMs: NOW, deletionCostAnnotation: COST }).map(
    (p) => p.metadata.name,
  );

describe('the order ReplicaSets delete pods in', () => {
  const ready = '2026-01-01T00:00:00Z';
  const cases: [string, Pod[], string[]][] = [
    ['unassigned before assigned', [pod('a', { node: 'n' }), pod('b')], ['b', 'a']],
    [
      'Pending before Unknown before Running',
      [pod('r', { node: 'n' }), pod('u', { node: 'n', phase: 'Unknown' }), pod('p', { node: 'n', phase: 'Pending' })],
      ['p', 'u', 'r'],
    ],
    ['not ready before ready', [pod('rd', { node: 'n', readySince: ready }), pod('nr', { node: 'n' })], ['nr', 'rd']],
    [
      'lower deletion cost first',
      [pod('hi', { node: 'n', cost: '10' }), pod('lo', { node: 'n', cost: '-5' })],
      ['lo', 'hi'],
    ],
    [
      'more pods on the same node first',
      [pod('alone', { node: 'n1' }), pod('x', { node: 'n2' }), pod('y', { node: 'n2' })],
      ['x', 'y', 'alone'],
    ],
    [
      'ready for less time first (by logarithmic bucket)',
      [
        pod('long', { node: 'n', readySince: '2026-01-01T00:00:00Z' }),
        pod('short', { node: 'n', readySince: '2026-01-01T11:59:00Z' }),
      ],
      ['short', 'long'],
    ],
    [
      'more restarts first',
      [pod('calm', { node: 'n' }), pod('crashy', { node: 'n', restarts: 4 })],
      ['crashy', 'calm'],
    ],
    [
      'newer first',
      [
        pod('old', { node: 'n', created: '2026-01-01T00:00:00Z' }),
        pod('new', { node: 'n', created: '2026-01-01T11:00:00Z' }),
      ],
      ['new', 'old'],
    ],
  ];
  for (const [name, pods, want] of cases) {
    it(name, () => assert.deepEqual(order(pods), want));
  }
});

describe('expectations', () => {
  it('hold a sync until the creations and deletions are observed, or five minutes pass', () => {
    let now = 0;
    const e = new Expectations({ now: () => new Date(now) });
    assert.ok(e.satisfied('ns/rs'));
    e.expect('ns/rs', 2);
    e.creationObserved('ns/rs');
    assert.ok(!e.satisfied('ns/rs'));
    e.creationObserved('ns/rs');
    assert.ok(e.satisfied('ns/rs'));
    e.expect('ns/rs', 0, ['ns/p1']);
    e.deletionObserved('ns/rs', 'ns/p1');
    e.deletionObserved('ns/rs', 'ns/p1');
    assert.ok(e.satisfied('ns/rs'));
    e.expect('ns/rs', 1);
    now += 5 * 60_000 + 1;
    assert.ok(e.satisfied('ns/rs'));
  });
});

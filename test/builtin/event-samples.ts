/** Sample Events of both views (k8s.io profile) for the events/v1 tests. */

/** An old-style core/v1 Event about pod `web-0` in `namespace`. */
export function coreEvent(namespace: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', name: 'web-0', namespace, uid: 'pod-uid', apiVersion: 'v1' },
    reason: 'Pulled',
    message: 'Pulled image',
    source: { component: 'node-agent', host: 'node-1' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:01:00Z',
    count: 2,
    type: 'Normal',
    ...extra,
  };
}

/** A new-style events.k8s.io/v1 Event about pod `web-1` in `namespace`. */
export function v1Event(namespace: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2026-01-01T00:00:00.123456Z',
    reportingController: 'example.com/scheduler',
    reportingInstance: 'scheduler-1',
    action: 'Binding',
    reason: 'Scheduled',
    regarding: { kind: 'Pod', name: 'web-1', namespace, uid: 'pod-uid-1', apiVersion: 'v1' },
    note: 'Assigned to node-1',
    type: 'Normal',
    ...extra,
  };
}

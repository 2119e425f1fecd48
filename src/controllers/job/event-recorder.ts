import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Clock } from '../../util/clock.js';
import { formatTime } from '../../util/clock.js';

/**
 * Records core/v1 Events about an object as client-go's recorder does (one Event per call, named
 * `<object>.<hex nanoseconds>`, source component the controller), best effort: a failed write
 * is dropped.
 */
export class EventRecorder {
  constructor(
    private readonly events: ResourceClient | undefined,
    private readonly component: string,
    private readonly clock: Clock,
    private readonly signal: AbortSignal,
  ) {}

  record(about: ApiObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (!this.events) return;
    const now = this.clock.now();
    const ns = about.metadata.namespace ?? 'default';
    const stamp = (BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16);
    const t = formatTime(now);
    const event: ApiObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${about.metadata.name}.${stamp}`, namespace: ns },
      involvedObject: {
        kind: about.kind,
        namespace: about.metadata.namespace,
        name: about.metadata.name,
        uid: about.metadata.uid,
        apiVersion: about.apiVersion,
        resourceVersion: about.metadata.resourceVersion,
      },
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type,
      reportingComponent: this.component,
      reportingInstance: '',
    };
    this.events.create(ns, event, this.signal).catch(() => {});
  }
}

import type { Pod } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { formatTime } from '../../util/clock.js';
import { type ControllerContext, type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import { errorText, isStatus, sleep, timeMs, waitForInformers } from '../controller-support.js';

/** kube's `gcCheckPeriod`: a collection every 20 s (by the controller's clock). */
const GC_PERIOD_MS = 20_000;
/** kube's `quarantineTime`: a node must be missing this long before its pods are removed. */
const QUARANTINE_MS = 40_000;
/** How often the loop looks at the clock. */
const TICK_MS = 250;

interface Node extends ApiObject {
  spec?: { taints?: { key?: string; effect?: string }[] };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** kube's `isPodTerminated`: any phase but Pending, Running and Unknown (unset counts as Pending). */
function isTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase ?? 'Pending';
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

function isEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status?.reason === 'Evicted';
}

/** kube's `byEvictionAndCreationTimestamp`: evicted first, then oldest, then by name. */
function evictedThenOldest(a: Pod, b: Pod): number {
  if (isEvicted(a) !== isEvicted(b)) return isEvicted(a) ? -1 : 1;
  const ta = timeMs(a.metadata.creationTimestamp) ?? 0;
  const tb = timeMs(b.metadata.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** The pod garbage collector's state across collections. */
class PodGC {
  /** Node names seen missing, with the clock time they were first seen missing. */
  private readonly missingSince = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly o: {
      readonly pods: { list(): ApiObject[] };
      readonly nodes: { list(): ApiObject[]; get(ns: string, name: string): ApiObject | undefined };
      readonly podClient: ResourceClient;
      readonly nodeClient: ResourceClient;
      readonly threshold: number;
    },
  ) {}

  /** One collection: kube's `gc`. */
  async collect(): Promise<void> {
    const pods = this.o.pods.list() as Pod[];
    if (this.o.threshold > 0) await this.terminated(pods);
    await this.terminatingOnOutOfServiceNodes(pods);
    await this.orphaned(pods);
    await this.unscheduledTerminating(pods);
  }

  private async terminated(pods: Pod[]): Promise<void> {
    const done = pods.filter(isTerminated);
    const excess = done.length - this.o.threshold;
    if (excess <= 0) return;
    done.sort(evictedThenOldest);
    await this.parallel(done.slice(0, excess), (p) => this.failAndDelete(p));
  }

  private async terminatingOnOutOfServiceNodes(pods: Pod[]): Promise<void> {
    const outOfService = this.ctx.domain.key('node', 'out-of-service');
    const victims = pods.filter((p) => {
      if (!p.metadata.deletionTimestamp || !p.spec?.nodeName) return false;
      const node = this.o.nodes.get('', p.spec.nodeName) as Node | undefined;
      if (!node) return false;
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
      return !ready && (node.spec?.taints ?? []).some((t) => t.key === outOfService);
    });
    await this.parallel(victims, (p) => this.failAndDelete(p));
  }

  /**
   * kube's `gcOrphaned`: pods bound to a node that has been missing for the quarantine time (and
   * a live read confirms it is gone) are failed with `DisruptionTarget` (`DeletionByPodGC`) and
   * deleted.
   */
  private async orphaned(pods: Pod[]): Promise<void> {
    const now = this.ctx.clock.now().getTime();
    const existing = new Set(this.o.nodes.list().map((n) => n.metadata.name));
    for (const name of [...this.missingSince.keys()]) if (existing.has(name)) this.missingSince.delete(name);
    for (const p of pods) {
      const node = p.spec?.nodeName;
      if (node && !existing.has(node) && !this.missingSince.has(node)) this.missingSince.set(node, now);
    }
    const deleted = new Set<string>();
    for (const [name, since] of this.missingSince) {
      if (now - since < QUARANTINE_MS) continue;
      this.missingSince.delete(name);
      try {
        await this.o.nodeClient.get('', name, this.ctx.signal);
      } catch (e) {
        if (isStatus(e, 404)) deleted.add(name);
        else this.ctx.logger.warn('podgc: reading a node failed', { node: name, error: errorText(e) });
      }
    }
    const victims = pods.filter((p) => deleted.has(p.spec?.nodeName ?? ''));
    await this.parallel(victims, (p) =>
      this.failAndDelete(p, {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists',
      }),
    );
  }

  private async unscheduledTerminating(pods: Pod[]): Promise<void> {
    const victims = pods.filter((p) => p.metadata.deletionTimestamp && !p.spec?.nodeName);
    await this.parallel(victims, (p) => this.failAndDelete(p));
  }

  private async parallel(pods: Pod[], fn: (p: Pod) => Promise<void>): Promise<void> {
    const results = await Promise.allSettled(pods.map(fn));
    for (const r of results) {
      if (r.status === 'rejected') this.ctx.logger.warn('podgc: deleting a pod failed', { error: errorText(r.reason) });
    }
  }

  /**
   * kube's `markFailedAndDeletePodWithCondition`: a pod not yet finished gets phase `Failed`
   * (and the condition) by a forced apply of its status, then it is deleted at once (grace 0).
   */
  private async failAndDelete(
    pod: Pod,
    condition?: { type: string; status: string; reason: string; message: string },
  ): Promise<void> {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const phase = pod.status?.phase;
    try {
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const status: Record<string, unknown> = { phase: 'Failed' };
        if (condition) {
          status.conditions = [{ ...condition, lastTransitionTime: formatTime(this.ctx.clock.now()) }];
        }
        await this.o.podClient.apply(
          ns,
          name,
          { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, status },
          this.ctx.signal,
          { force: true, subresource: 'status' },
        );
      }
      await this.o.podClient.delete(ns, name, { gracePeriodSeconds: 0 }, this.ctx.signal);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
}

async function runPodGC(ctx: ControllerContext): Promise<void> {
  const pods = ctx.informers.lookup('', 'pods');
  const nodes = ctx.informers.lookup('', 'nodes');
  const podClient = ctx.client.preferred('', 'pods');
  const nodeClient = ctx.client.preferred('', 'nodes');
  if (!pods || !nodes || !podClient || !nodeClient) return;
  if (!(await waitForInformers([pods, nodes], ctx.signal))) return;
  const gc = new PodGC(ctx, {
    pods,
    nodes,
    podClient,
    nodeClient,
    threshold: configNumber(ctx.config, 'TerminatedPodGCThreshold', 12500),
  });
  let last = Number.NEGATIVE_INFINITY;
  while (!ctx.signal.aborted) {
    const now = ctx.clock.now().getTime();
    if (now - last >= GC_PERIOD_MS) {
      last = now;
      try {
        await gc.collect();
      } catch (e) {
        if (ctx.signal.aborted) return;
        ctx.logger.warn('podgc: collection failed', { error: errorText(e) });
      }
    }
    await sleep(TICK_MS, ctx.signal);
  }
}

/**
 * kube-controller-manager's `pod-garbage-collector-controller` (alias `podgc`): every 20 s (by
 * the controller's clock) deletes terminated pods beyond `TerminatedPodGCThreshold` (evicted
 * first, then oldest; `PodGCController` member, default 12500, 0 disables), pods bound to
 * nodes missing for 40 s, terminating pods on out-of-service nodes and terminating pods never
 * scheduled.
 */
export const podGCController: ControllerDescriptor = {
  name: 'pod-garbage-collector-controller',
  aliases: ['podgc'],
  serviceAccount: 'pod-garbage-collector',
  enabledByDefault: true,
  configMember: 'PodGCController',
  run: runPodGC,
};

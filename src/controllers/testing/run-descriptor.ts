import { setMaxListeners } from 'node:events';
import { type ApiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { alwaysAllow } from '../../authz/index.js';
import { SharedInformerSet } from '../../client/informer/shared-informer-set.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { silentLogger } from '../../util/logger.js';
import { controllerIdentity, informerIdentity } from '../controller-client.js';
import type { ControllerDescriptor } from '../controller-descriptor.js';
import { InProcessApiClient } from '../in-process-api-client.js';

export interface RunningDescriptors {
  /** Stops the controllers and their informers, and waits for them. */
  stop(): Promise<void>;
}

/**
 * Runs controllers in process over `resources` (e.g. a `registryFixture()`), each as its own
 * service account, with shared informers, as orch-apiserver would run them; authorization is
 * AlwaysAllow (controller authorization is tested over HTTP under RBAC).
 */
export function runDescriptors(
  resources: ResourceSet,
  descriptors: readonly ControllerDescriptor[],
  o: {
    readonly config?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly clock?: Clock;
    readonly minResyncPeriodMs?: number;
    /** The server's domain profile (default `orch.io`). */
    readonly domain?: ApiDomain;
  } = {},
): RunningDescriptors {
  const lifetime = new AbortController();
  setMaxListeners(0, lifetime.signal);
  const signal = lifetime.signal;
  const domain = o.domain ?? ORCH_DOMAIN;
  const informers = new SharedInformerSet(new InProcessApiClient(resources, informerIdentity(domain), alwaysAllow), {
    logger: silentLogger,
    signal,
  });
  const loops = descriptors.map((d) =>
    d.run({
      client: new InProcessApiClient(resources, controllerIdentity(d.serviceAccount, domain), alwaysAllow),
      informers,
      config: (d.configMember && o.config?.[d.configMember]) || {},
      minResyncPeriodMs: o.minResyncPeriodMs ?? 12 * 3600_000,
      domain,
      clock: o.clock ?? systemClock,
      logger: silentLogger,
      signal,
    }),
  );
  informers.start();
  return {
    async stop() {
      lifetime.abort();
      await Promise.allSettled(loops);
      await informers.stopped();
    },
  };
}

import type { Registry } from 'prom-client';
import { ConfigReloadMetrics } from '../../util/config-reload-metrics.js';

export type { ReloadStatus } from '../../util/config-reload-metrics.js';

/** The authorization configuration controller's reload metrics. */
export class AuthorizationConfigReloadMetrics extends ConfigReloadMetrics {
  constructor(registry: Registry, apiServerId: string) {
    super(registry, apiServerId, 'authorization');
  }
}

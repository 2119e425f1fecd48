import type { Registry } from 'prom-client';
import { ConfigReloadMetrics } from '../../util/config-reload-metrics.js';

export { apiServerIdHash, type ReloadStatus } from '../../util/config-reload-metrics.js';

/** The authentication configuration controller's reload metrics. */
export class AuthenticationConfigReloadMetrics extends ConfigReloadMetrics {
  constructor(registry: Registry, apiServerId: string) {
    super(registry, apiServerId, 'authentication');
  }
}

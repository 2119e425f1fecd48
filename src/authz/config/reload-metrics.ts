import { createHash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';

const RELOADS_TOTAL = 'apiserver_authorization_config_controller_automatic_reloads_total';
const LAST_RELOAD = 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds';

/** Outcome of one automatic reload of the authorization configuration. */
export type ReloadStatus = 'success' | 'failure';

/** kube-apiserver's hashed server identity label: `sha256:<hex>` of the id, empty for none. */
export function apiServerIdHash(apiServerId: string): string {
  return apiServerId === '' ? '' : `sha256:${createHash('sha256').update(apiServerId).digest('hex')}`;
}

/**
 * The authorization configuration controller's metrics, with kube-apiserver v1.32's names, help
 * texts and labels (`status`, `apiserver_id_hash`), registered once per registry.
 */
export class AuthorizationConfigReloadMetrics {
  readonly #reloads: Counter<'status' | 'apiserver_id_hash'>;
  readonly #last: Gauge<'status' | 'apiserver_id_hash'>;
  readonly #idHash: string;

  constructor(registry: Registry, apiServerId: string) {
    this.#idHash = apiServerIdHash(apiServerId);
    this.#reloads =
      (registry.getSingleMetric(RELOADS_TOTAL) as Counter<'status' | 'apiserver_id_hash'> | undefined) ??
      new Counter({
        name: RELOADS_TOTAL,
        help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.',
        labelNames: ['status', 'apiserver_id_hash'],
        registers: [registry],
      });
    this.#last =
      (registry.getSingleMetric(LAST_RELOAD) as Gauge<'status' | 'apiserver_id_hash'> | undefined) ??
      new Gauge({
        name: LAST_RELOAD,
        help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.',
        labelNames: ['status', 'apiserver_id_hash'],
        registers: [registry],
      });
  }

  /** Counts a reload and stamps its time (seconds since the epoch). */
  record(status: ReloadStatus, at: Date): void {
    const labels = { status, apiserver_id_hash: this.#idHash };
    this.#reloads.inc(labels);
    this.#last.set(labels, at.getTime() / 1000);
  }
}

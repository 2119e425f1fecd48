import { createHash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';

/** Outcome of one automatic reload of a configuration file. */
export type ReloadStatus = 'success' | 'failure';

/** kube-apiserver's hashed labels (server identity, JWT issuer): `sha256:<hex>` of the text, empty for none. */
export function apiServerIdHash(apiServerId: string): string {
  return apiServerId === '' ? '' : `sha256:${createHash('sha256').update(apiServerId).digest('hex')}`;
}

/**
 * The reload metrics of a configuration controller (`authentication` or `authorization`), with
 * kube-apiserver v1.32's names, help texts and labels (`status`, `apiserver_id_hash`), registered
 * once per registry.
 */
export class ConfigReloadMetrics {
  readonly #reloads: Counter<'status' | 'apiserver_id_hash'>;
  readonly #last: Gauge<'status' | 'apiserver_id_hash'>;
  readonly #idHash: string;

  constructor(registry: Registry, apiServerId: string, subject: 'authentication' | 'authorization') {
    this.#idHash = apiServerIdHash(apiServerId);
    const reloadsTotal = `apiserver_${subject}_config_controller_automatic_reloads_total`;
    const lastReload = `apiserver_${subject}_config_controller_automatic_reload_last_timestamp_seconds`;
    this.#reloads =
      (registry.getSingleMetric(reloadsTotal) as Counter<'status' | 'apiserver_id_hash'> | undefined) ??
      new Counter({
        name: reloadsTotal,
        help: `[ALPHA] Total number of automatic reloads of ${subject} configuration split by status and apiserver identity.`,
        labelNames: ['status', 'apiserver_id_hash'],
        registers: [registry],
      });
    this.#last =
      (registry.getSingleMetric(lastReload) as Gauge<'status' | 'apiserver_id_hash'> | undefined) ??
      new Gauge({
        name: lastReload,
        help: `[ALPHA] Timestamp of the last automatic reload of ${subject} configuration split by status and apiserver identity.`,
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

import type { ApiDomain } from '../apis/api-domain.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/** The ConfigMap saying since when legacy token use is tracked: `<product>-apiserver-legacy-service-account-token-tracking`. */
export function legacyTokenTrackingConfigMap(domain: ApiDomain): string {
  return domain.componentName('apiserver-legacy-service-account-token-tracking');
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(s: unknown): boolean {
  if (typeof s !== 'string' || !DATE.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

export interface LegacyTokenTrackingOptions {
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly clock?: Clock;
}

/**
 * One pass of kube-apiserver's legacy token tracking controller: the ConfigMap
 * {@link legacyTokenTrackingConfigMap} in the system namespace holds `since: <YYYY-MM-DD>`, the
 * day (UTC) this cluster began recording the use of legacy tokens (the `legacy-token-last-used`
 * label); it is created when missing and rewritten with today when its date is missing or not a
 * date. The legacy token cleaner waits for a whole clean-up period after that day. Returns
 * `created`, `updated` or `unchanged`.
 */
export async function ensureLegacyTokenTracking(
  resources: ResourceSet,
  domain: ApiDomain,
  o: LegacyTokenTrackingOptions,
): Promise<'created' | 'updated' | 'unchanged'> {
  const served = resources.lookup('', 'v1', 'configmaps');
  if (!served) return 'unchanged';
  const name = legacyTokenTrackingConfigMap(domain);
  const namespace = domain.systemNamespace;
  const ctx = (verb: string) =>
    internalRequestContext({
      user: API_SERVER_USER,
      signal: o.signal,
      verb,
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace,
      name,
    });
  const today = (o.clock ?? systemClock).now().toISOString().slice(0, 10);
  let live: ApiObject | undefined;
  try {
    live = await served.store.get(ctx('get'), name, {});
  } catch (e) {
    if (!(e instanceof StatusError && e.code === 404)) throw e;
  }
  const write = { dryRun: false, fieldManager: domain.apiServerManager };
  if (!live) {
    try {
      await served.store.create(
        ctx('create'),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { since: today } },
        write,
      );
      o.logger.info('legacy token tracking: recording legacy token use', { since: today });
      return 'created';
    } catch (e) {
      if (e instanceof StatusError && e.code === 409) return 'unchanged';
      throw e;
    }
  }
  if (validDate((live.data as Record<string, unknown> | undefined)?.since)) return 'unchanged';
  await served.store.update(
    ctx('update'),
    name,
    {
      retryOnConflict: false,
      compute: (current) => ({
        ...(current ?? live),
        data: { ...(((current ?? live) as ApiObject).data as object), since: today },
      }),
    },
    write,
  );
  return 'updated';
}

/**
 * Runs {@link ensureLegacyTokenTracking} now and every `intervalMs` until the signal aborts (kube
 * watches the ConfigMap; a periodic pass puts it back after a deletion the same way). Failures
 * are logged and retried at the next pass.
 */
export function startLegacyTokenTracking(
  resources: ResourceSet,
  domain: ApiDomain,
  o: LegacyTokenTrackingOptions & { readonly intervalMs: number },
): Promise<void> {
  const pass = () =>
    ensureLegacyTokenTracking(resources, domain, o).then(
      () => undefined,
      (e: unknown) => {
        if (!o.signal.aborted) o.logger.warn('legacy token tracking failed, will retry', { error: String(e) });
      },
    );
  if (o.intervalMs > 0 && !o.signal.aborted) {
    const timer = setInterval(pass, o.intervalMs);
    timer.unref();
    o.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }
  return pass();
}

import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import type { Informer } from '../../client/informer/informer.js';
import { type ControllerContext, type ControllerDescriptor, configDurationMs } from '../controller-descriptor.js';
import { errorText, isStatus, sleep, waitForInformers } from '../controller-support.js';
import { tokenSecretNames } from '../serviceaccount-token/serviceaccount-token-controller.js';
import { podSecretNames } from './pod-secret-names.js';

const DAY_MS = 24 * 3600_000;
/** kube's default `CleanUpPeriod`: one year. */
export const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * DAY_MS;
/** kube's `DefaultCleanerSyncInterval`: the tokens are looked at once a day. */
export const CLEANER_SYNC_INTERVAL_MS = DAY_MS;

/** The labels and the tracking ConfigMap of legacy token tracking, in one domain. */
export interface LegacyTokenNames {
  /** Label the API server sets when a legacy token is used: `<domain>/legacy-token-last-used`. */
  readonly lastUsedLabel: string;
  /** Label marking an unused token invalid: `<domain>/legacy-token-invalid-since`. */
  readonly invalidSinceLabel: string;
  /** ConfigMap in the system namespace whose `since` is when the API server began tracking. */
  readonly trackingConfigMap: string;
}

export function legacyTokenNames(domain: ApiDomain): LegacyTokenNames {
  return {
    lastUsedLabel: domain.key('', 'legacy-token-last-used'),
    invalidSinceLabel: domain.key('', 'legacy-token-invalid-since'),
    trackingConfigMap: domain.componentName('apiserver-legacy-service-account-token-tracking'),
  };
}

/** `YYYY-MM-DD` of a time, in UTC (Go's `2006-01-02`). */
export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Midnight UTC of a `YYYY-MM-DD` date, or undefined when it is not one (Go's strict parse). */
export function parseDate(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  return formatDate(new Date(t)) === s ? t : undefined;
}

interface Informers {
  readonly accounts: Informer;
  readonly secrets: Informer;
  readonly pods: Informer;
}

/**
 * One pass of kube's legacy token cleaner. Nothing happens until the API server has tracked
 * legacy token use for a whole `CleanUpPeriod` (the day after the tracking ConfigMap's `since`).
 * Then each token Secret created before `now - period`, not being deleted, whose last-used label
 * is absent or older than that, and that is auto-generated (its account, with the annotated uid,
 * lists it in `secrets`) and mounted by no pod of its namespace, is first labelled
 * `legacy-token-invalid-since=<today>` (merge patch with its uid); once that date is also before
 * `now - period`, it is deleted (resourceVersion precondition).
 */
export async function cleanLegacyTokens(ctx: ControllerContext, inf: Informers, periodMs: number): Promise<void> {
  const names = legacyTokenNames(ctx.domain);
  const tokenNames = tokenSecretNames(ctx.domain);
  const configMaps = ctx.client.resource('', 'v1', 'configmaps');
  const secrets = ctx.client.resource('', 'v1', 'secrets');
  if (!configMaps || !secrets) return;
  const now = ctx.clock.now();
  let tracking: ApiObject;
  try {
    tracking = await configMaps.get(ctx.domain.systemNamespace, names.trackingConfigMap, ctx.signal);
  } catch (e) {
    if (isStatus(e, 404)) {
      ctx.logger.info('legacy-token-cleaner: legacy token tracking has not started (no tracking ConfigMap)');
      return;
    }
    throw e;
  }
  const since = parseDate(String((tracking.data as Record<string, unknown> | undefined)?.since ?? ''));
  if (since === undefined) {
    ctx.logger.warn('legacy-token-cleaner: the tracking ConfigMap has no valid since date');
    return;
  }
  // Tracking covers whole days from the day after `since`.
  if (now.getTime() < since + DAY_MS + periodMs) return;
  const preserveCreatedOnOrAfter = now.getTime() - periodMs;
  const preserveUsedOnOrAfter = formatDate(new Date(preserveCreatedOnOrAfter));
  const mounted = new Map<string, Set<string>>();
  for (const secret of inf.secrets.list()) {
    if (secret.type !== tokenNames.type) continue;
    const created = Date.parse(secret.metadata.creationTimestamp ?? '');
    if (!(created < preserveCreatedOnOrAfter)) continue;
    if (secret.metadata.deletionTimestamp) continue;
    const labels = secret.metadata.labels ?? {};
    const lastUsed = labels[names.lastUsedLabel];
    if (lastUsed !== undefined) {
      if (parseDate(lastUsed) === undefined || lastUsed >= preserveUsedOnOrAfter) continue;
    }
    const namespace = secret.metadata.namespace ?? '';
    const name = secret.metadata.name ?? '';
    const a = secret.metadata.annotations ?? {};
    const saName = a[tokenNames.nameAnnotation] ?? '';
    const saUid = a[tokenNames.uidAnnotation] ?? '';
    const sa = saName === '' ? undefined : inf.accounts.get(namespace, saName);
    if (!sa || (saUid !== '' && sa.metadata.uid !== saUid)) continue;
    const refs = Array.isArray(sa.secrets) ? (sa.secrets as { name?: unknown }[]) : [];
    if (!refs.some((r) => r?.name === name)) continue; // not auto-generated
    let used = mounted.get(namespace);
    if (!used) {
      used = new Set();
      for (const pod of inf.pods.list(namespace)) for (const n of podSecretNames(pod)) used.add(n);
      mounted.set(namespace, used);
    }
    if (used.has(name)) continue;
    const invalidSince = labels[names.invalidSinceLabel] ?? '';
    if (parseDate(invalidSince) === undefined) {
      const today = formatDate(now);
      ctx.logger.info('legacy-token-cleaner: marking the auto-generated token invalid', {
        secret: `${namespace}/${name}`,
        invalidSince: today,
      });
      try {
        await secrets.patch(
          namespace,
          name,
          'merge',
          { metadata: { name, namespace, uid: secret.metadata.uid, labels: { [names.invalidSinceLabel]: today } } },
          ctx.signal,
        );
      } catch (e) {
        ctx.logger.warn('legacy-token-cleaner: could not label the token invalid', {
          secret: `${namespace}/${name}`,
          error: errorText(e),
        });
      }
      continue;
    }
    if (invalidSince >= preserveUsedOnOrAfter) continue;
    ctx.logger.info('legacy-token-cleaner: deleting the auto-generated token', {
      secret: `${namespace}/${name}`,
      lastUsed: lastUsed ?? '',
      invalidSince,
    });
    try {
      await secrets.delete(
        namespace,
        name,
        { preconditions: { resourceVersion: secret.metadata.resourceVersion } },
        ctx.signal,
      );
    } catch (e) {
      if (!isStatus(e, 404) && !isStatus(e, 409)) {
        ctx.logger.warn('legacy-token-cleaner: could not delete the token', {
          secret: `${namespace}/${name}`,
          error: errorText(e),
        });
      }
    }
  }
}

/**
 * kube-controller-manager's legacy service account token cleaner
 * (`legacy-serviceaccount-token-cleaner-controller`, alias `legacy-service-account-token-cleaner`):
 * {@link cleanLegacyTokens} at start and then once a day, with `LegacySATokenCleaner.CleanUpPeriod`
 * (default one year). Time is `ctx.clock`.
 */
export const legacyServiceAccountTokenCleaner: ControllerDescriptor = {
  name: 'legacy-serviceaccount-token-cleaner-controller',
  aliases: ['legacy-service-account-token-cleaner'],
  serviceAccount: 'legacy-service-account-token-cleaner',
  enabledByDefault: true,
  configMember: 'LegacySATokenCleaner',
  async run(ctx) {
    const periodMs = configDurationMs(ctx.config, 'CleanUpPeriod', DEFAULT_CLEAN_UP_PERIOD_MS);
    if (!(periodMs > 0))
      throw new Error(`invalid LegacySATokenCleaner.CleanUpPeriod: ${String(ctx.config.CleanUpPeriod)}`);
    const accounts = ctx.informers.lookup('', 'serviceaccounts');
    const secrets = ctx.informers.lookup('', 'secrets');
    const pods = ctx.informers.lookup('', 'pods');
    if (!accounts || !secrets || !pods) return;
    if (!(await waitForInformers([accounts, secrets, pods], ctx.signal))) return;
    while (!ctx.signal.aborted) {
      try {
        await cleanLegacyTokens(ctx, { accounts, secrets, pods }, periodMs);
      } catch (e) {
        if (ctx.signal.aborted) return;
        ctx.logger.warn('legacy-token-cleaner: pass failed', { error: errorText(e) });
      }
      await sleep(CLEANER_SYNC_INTERVAL_MS, ctx.signal);
    }
  },
};

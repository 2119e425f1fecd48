import type { ApiObject } from '../../apis/object.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ControllerDescriptor } from '../controller-descriptor.js';
import { errorText, isStatus, startResync, waitForInformers } from '../controller-support.js';
import { isBootstrapTokenSecret, MAX_TIMER_MS, signingToken } from './bootstrap-token-secrets.js';
import { detachedSignature } from './detached-jws.js';

/** The ConfigMap signed, in the public namespace. */
export const CLUSTER_INFO = 'cluster-info';
/** Its key that is signed. */
export const KUBECONFIG_KEY = 'kubeconfig';
/** Prefix of its signature keys: `jws-kubeconfig-<token id>`. */
export const SIGNATURE_PREFIX = 'jws-kubeconfig-';

const KEY = 'signer';

/**
 * kube-controller-manager's bootstrap signer (`bootstrap-signer-controller`, alias
 * `bootstrapsigner`; off unless named, as in kube): the `cluster-info` ConfigMap of the public
 * namespace gets one detached JWS of its `kubeconfig` value per valid signing token
 * (`usage-bootstrap-signing: "true"`, not expired), under `jws-kubeconfig-<token id>`; signatures
 * of tokens that are gone, expired or no longer for signing are removed. The ConfigMap is written
 * only when a signature changes. Besides kube's triggers (ConfigMap and Secret changes, resync)
 * it looks again when the next signing token expires.
 */
export const bootstrapSignerController: ControllerDescriptor = {
  name: 'bootstrap-signer-controller',
  aliases: ['bootstrapsigner'],
  serviceAccount: 'bootstrap-signer',
  enabledByDefault: false,
  async run(ctx) {
    const configMaps = ctx.informers.lookup('', 'configmaps');
    const secrets = ctx.informers.lookup('', 'secrets');
    const client = ctx.client.resource('', 'v1', 'configmaps');
    if (!configMaps || !secrets || !client) return;
    const publicNs = ctx.domain.publicNamespace;
    const systemNs = ctx.domain.systemNamespace;
    const queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 30_000 });
    const onConfigMap = (cm: ApiObject) => {
      if (cm.metadata.namespace === publicNs && cm.metadata.name === CLUSTER_INFO) queue.add(KEY);
    };
    configMaps.addHandlers({ onAdd: onConfigMap, onUpdate: (_o, cm) => onConfigMap(cm) });
    const onSecret = (s: ApiObject) => {
      if (isBootstrapTokenSecret(s, ctx.domain)) queue.add(KEY);
    };
    secrets.addHandlers({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: onSecret });

    const sync = async () => {
      const cm = configMaps.get(publicNs, CLUSTER_INFO);
      if (!cm) return;
      const data = { ...((cm.data as Record<string, string> | undefined) ?? {}) };
      const content = data[KUBECONFIG_KEY];
      if (typeof content !== 'string') {
        ctx.logger.info(`bootstrap-signer: no ${KUBECONFIG_KEY} key in ${publicNs}/${CLUSTER_INFO}`);
        return;
      }
      const old = new Map<string, string>();
      for (const [k, v] of Object.entries(data)) {
        if (!k.startsWith(SIGNATURE_PREFIX)) continue;
        old.set(k.slice(SIGNATURE_PREFIX.length), v);
        delete data[k];
      }
      let changed = false;
      let nextExpiryMs: number | undefined;
      const now = ctx.clock.now();
      for (const s of secrets.list(systemNs)) {
        const token = signingToken(s, ctx.domain, now);
        if (!token) continue;
        if (token.ttlMs !== undefined) nextExpiryMs = Math.min(nextExpiryMs ?? token.ttlMs, token.ttlMs);
        const sig = await detachedSignature(content, token.id, token.secret);
        if (old.get(token.id) !== sig) changed = true;
        old.delete(token.id);
        data[SIGNATURE_PREFIX + token.id] = sig;
      }
      if (old.size > 0) changed = true;
      if (nextExpiryMs !== undefined) queue.addAfter(KEY, Math.min(MAX_TIMER_MS, Math.max(1, nextExpiryMs)));
      if (!changed) return;
      const updated = structuredClone(cm);
      updated.data = data;
      try {
        await client.update(updated, ctx.signal);
      } catch (e) {
        if (isStatus(e, 409) || isStatus(e, 404)) return; // the event of the newer state requeues
        throw e;
      }
    };

    if (!(await waitForInformers([configMaps, secrets], ctx.signal))) return;
    queue.add(KEY);
    startResync(ctx.minResyncPeriodMs, ctx.signal, () => queue.add(KEY));
    await queue.run(sync, {
      workers: 1,
      onError: (_k, err) => ctx.logger.warn('bootstrap-signer: retrying', { error: errorText(err) }),
    });
  },
};

import type { ApiObject } from '../../apis/object.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ControllerDescriptor } from '../controller-descriptor.js';
import { errorText, isStatus, startResync, waitForInformers } from '../controller-support.js';
import { bootstrapTokenExpiration, isBootstrapTokenSecret, MAX_TIMER_MS } from './bootstrap-token-secrets.js';

/**
 * kube-controller-manager's bootstrap token cleaner (`token-cleaner-controller`, alias
 * `tokencleaner`; off unless named, as in kube): a bootstrap token Secret (type
 * `bootstrap.<domain>/token` in the system namespace) whose `expiration` has passed, or cannot be
 * read, is deleted (uid precondition); one that expires later is looked at again when it does.
 * Time is `ctx.clock`.
 */
export const tokenCleanerController: ControllerDescriptor = {
  name: 'token-cleaner-controller',
  aliases: ['tokencleaner'],
  serviceAccount: 'token-cleaner',
  enabledByDefault: false,
  async run(ctx) {
    const secrets = ctx.informers.lookup('', 'secrets');
    const client = ctx.client.resource('', 'v1', 'secrets');
    if (!secrets || !client) return;
    const namespace = ctx.domain.systemNamespace;
    const queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 30_000 });
    const queueSecret = (s: ApiObject) => {
      if (isBootstrapTokenSecret(s, ctx.domain) && s.metadata.name) queue.add(s.metadata.name);
    };
    secrets.addHandlers({ onAdd: queueSecret, onUpdate: (_o, s) => queueSecret(s) });

    const sync = async (name: string) => {
      const secret = secrets.get(namespace, name);
      if (!secret || !isBootstrapTokenSecret(secret, ctx.domain)) return;
      const exp = bootstrapTokenExpiration(secret, ctx.clock.now());
      if (!exp) return;
      if (!exp.expired) {
        queue.addAfter(name, Math.min(MAX_TIMER_MS, Math.max(1, exp.ttlMs)));
        return;
      }
      ctx.logger.info('token-cleaner: deleting expired bootstrap token', { secret: `${namespace}/${name}` });
      try {
        await client.delete(namespace, name, { preconditions: { uid: secret.metadata.uid ?? '' } }, ctx.signal);
      } catch (e) {
        if (!isStatus(e, 404) && !isStatus(e, 409)) throw e;
      }
    };

    if (!(await waitForInformers([secrets], ctx.signal))) return;
    // Every token cached now (handlers added late do not hear of those already listed), then
    // again every resync period.
    const all = () => {
      for (const s of secrets.list(namespace)) queueSecret(s);
    };
    all();
    startResync(ctx.minResyncPeriodMs, ctx.signal, all);
    await queue.run(sync, {
      workers: 1,
      onError: (name, err) =>
        ctx.logger.warn('token-cleaner: retrying', {
          secret: `${namespace}/${name}`,
          error: errorText(err),
        }),
    });
  },
};

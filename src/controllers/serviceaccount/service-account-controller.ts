import type { ApiObject } from '../../apis/object.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ControllerContext, ControllerDescriptor } from '../controller-descriptor.js';
import { errorText, isNamespaceTerminating, isStatus, startResync, waitForInformers } from '../controller-support.js';

/** kube-controller-manager's service account (and field manager) of this controller. */
export const SERVICE_ACCOUNT_CONTROLLER_NAME = 'service-account-controller';

/** The service accounts every active namespace gets (kube's default options: just `default`). */
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

/**
 * kube-controller-manager's serviceaccount controller: every namespace whose phase is `Active`
 * gets a `default` ServiceAccount, created again whenever it is deleted. Namespaces are queued
 * when they are added or change, when one of their service accounts is deleted, and on every
 * resync; a terminating namespace is left alone (creating in it is refused anyway), and an
 * account that already exists is not an error. Failures retry with backoff. One worker, as kube.
 */
async function runServiceAccountController(ctx: ControllerContext, names: readonly string[]): Promise<void> {
  const { signal, logger } = ctx;
  const accountsClient = ctx.client.resource('', 'v1', 'serviceaccounts');
  const namespaces = ctx.informers.lookup('', 'namespaces');
  const accounts = ctx.informers.lookup('', 'serviceaccounts');
  if (!accountsClient || !namespaces || !accounts) {
    logger.warn('serviceaccount controller: namespaces or serviceaccounts are not served; not running');
    return;
  }
  const queue = new WorkQueue<string>({ signal, maxRetryDelayMs: 30_000 });
  const enqueue = (ns: ApiObject) => {
    if (ns.metadata.name) queue.add(ns.metadata.name);
  };
  namespaces.addHandlers({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
  accounts.addHandlers({
    onDelete: (sa) => {
      const ns = sa.metadata.namespace;
      if (ns && sa.metadata.name && names.includes(sa.metadata.name)) queue.add(ns);
    },
  });
  if (!(await waitForInformers([namespaces, accounts], signal))) return;
  for (const ns of namespaces.list()) enqueue(ns);

  const sync = async (namespace: string): Promise<void> => {
    const ns = namespaces.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    if ((ns as { status?: { phase?: unknown } }).status?.phase !== 'Active') return;
    for (const name of names) {
      if (accounts.get(namespace, name)) continue;
      try {
        await accountsClient.create(
          namespace,
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
          signal,
        );
      } catch (e) {
        // Already there (the cache lags), or the namespace began terminating meanwhile.
        if (isStatus(e, 409) || isNamespaceTerminating(e)) continue;
        throw e;
      }
    }
  };
  startResync(ctx.minResyncPeriodMs, signal, () => {
    for (const ns of namespaces.list()) enqueue(ns);
  });
  await queue.run(sync, {
    workers: 1,
    onError: (name, err) =>
      logger.warn('serviceaccount controller: retrying', {
        namespace: name,
        error: errorText(err),
      }),
  });
}

/**
 * The serviceaccount controller (`serviceaccount-controller`, alias `serviceaccount`), as the
 * service account `service-account-controller`. kube's controller reads no configuration member.
 */
export const serviceAccountController: ControllerDescriptor = {
  name: 'serviceaccount-controller',
  aliases: ['serviceaccount'],
  serviceAccount: SERVICE_ACCOUNT_CONTROLLER_NAME,
  enabledByDefault: true,
  run: (ctx) => runServiceAccountController(ctx, DEFAULT_SERVICE_ACCOUNTS),
};

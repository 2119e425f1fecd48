import type { ApiDomain } from '../../apis/api-domain.js';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Authorizer } from '../../authz/index.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import type { Logger } from '../../util/logger.js';
import { ControllerClient, controllerIdentity } from '../controller-client.js';
import type { InformerSet } from '../informer/informer-set.js';
import type { ResourceInformer } from '../informer/resource-informer.js';

/** kube-controller-manager's name for this controller (its service account and field manager). */
export const SERVICE_ACCOUNT_CONTROLLER_NAME = 'service-account-controller';

/** The service accounts every active namespace gets (kube's default options: just `default`). */
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

export interface ServiceAccountControllerOptions {
  readonly resources: ResourceSet;
  readonly informers: InformerSet;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** Names the controller's identity. */
  readonly domain: ApiDomain;
  /** Decides on every request of the controller (its role: `system:controller:service-account-controller`). */
  readonly authorizer: Authorizer;
  /** Default {@link DEFAULT_SERVICE_ACCOUNTS}. */
  readonly serviceAccounts?: readonly string[];
}

function isCode(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/**
 * kube-controller-manager's serviceaccount controller, in process: every namespace whose phase is
 * `Active` gets a `default` ServiceAccount, created again whenever it is deleted. Namespaces are
 * queued when they are added or change and when one of their service accounts is deleted; a
 * namespace that is terminating is left alone (creating in it is refused anyway), and an account
 * that already exists is not an error. Failures retry with backoff.
 */
export class ServiceAccountController {
  private readonly queue: WorkQueue<string>;
  private readonly client: ControllerClient;
  private readonly names: readonly string[];
  private readonly namespaces: ResourceInformer | undefined;
  private readonly accounts: ResourceInformer | undefined;
  private readonly served: ServedResource | undefined;

  constructor(private readonly options: ServiceAccountControllerOptions) {
    this.client = new ControllerClient(
      controllerIdentity(SERVICE_ACCOUNT_CONTROLLER_NAME, options.domain),
      options.authorizer,
    );
    this.names = options.serviceAccounts ?? DEFAULT_SERVICE_ACCOUNTS;
    this.queue = new WorkQueue<string>({ signal: options.signal, maxRetryDelayMs: 30_000 });
    this.served = options.resources.lookup('', 'v1', 'serviceaccounts');
    this.namespaces = options.informers.lookup('', 'namespaces');
    this.accounts = options.informers.lookup('', 'serviceaccounts');
    const enqueue = (ns: ApiObject) => {
      if (ns.metadata.name) this.queue.add(ns.metadata.name);
    };
    this.namespaces?.addHandlers({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
    this.accounts?.addHandlers({
      onDelete: (sa) => {
        const ns = sa.metadata.namespace;
        if (ns && sa.metadata.name && this.names.includes(sa.metadata.name)) this.queue.add(ns);
      },
    });
  }

  /** Processes namespaces until the signal aborts. */
  async run(): Promise<void> {
    if (!this.served || !this.namespaces || !this.accounts) return;
    await Promise.race([
      Promise.all([this.namespaces.synced(), this.accounts.synced()]),
      new Promise((resolve) => this.options.signal.addEventListener('abort', resolve, { once: true })),
    ]);
    if (this.options.signal.aborted) return;
    await this.queue.run((name) => this.sync(name), {
      workers: 1,
      onError: (name, err) =>
        this.options.logger.warn('serviceaccount controller: retrying', {
          namespace: name,
          error: err instanceof Error ? err.message : String(err),
        }),
    });
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces?.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    if ((ns as { status?: { phase?: unknown } }).status?.phase !== 'Active') return;
    const served = this.served as ServedResource;
    for (const name of this.names) {
      if (this.accounts?.get(namespace, name)) continue;
      try {
        await this.client.create(
          served,
          namespace,
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
          this.options.signal,
        );
      } catch (e) {
        // Already there (the cache lags), or the namespace began terminating meanwhile.
        if (isCode(e, 409) || isTerminating(e)) continue;
        throw e;
      }
    }
  }
}

function isTerminating(e: unknown): boolean {
  return (
    e instanceof StatusError &&
    e.code === 403 &&
    (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')
  );
}

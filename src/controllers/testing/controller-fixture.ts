import type { ApiObject, OwnerReference } from '../../apis/object.js';
import { type RegistryFixture, registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { isStatus } from '../controller-support.js';
import { inProcessControllers } from '../index.js';
import { type RunningDescriptors, runDescriptors } from './run-descriptor.js';

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface ControllerFixture extends RegistryFixture {
  /** Starts the controllers (again, after `stopControllers`). */
  startControllers(): void;
  stopControllers(): Promise<void>;
  /** A ConfigMap in `namespace`, optionally with owners and finalizers. */
  configMap(
    namespace: string,
    name: string,
    meta?: { owners?: OwnerReference[]; finalizers?: string[] },
  ): Promise<ApiObject>;
  /** The object, or undefined when it is gone. */
  find(resource: string, namespace: string, name: string): Promise<ApiObject | undefined>;
  /** An owner reference to `obj`. */
  ownerRef(obj: ApiObject, extra?: Partial<OwnerReference>): OwnerReference;
}

/** Built-in registries over a memory store, served as the server serves them, plus controllers. */
export async function controllerFixture(): Promise<ControllerFixture> {
  const f = await registryFixture();
  const resources = f.resources;
  let running: RunningDescriptors | undefined;
  return {
    ...f,
    startControllers() {
      // The descriptors orch-apiserver runs, each as its own service account (AlwaysAllow:
      // authorization is tested over HTTP under RBAC; these tests are about the controllers' work).
      running = runDescriptors(resources, inProcessControllers({ gcSyncTimeoutMs: 2000 }));
    },
    async stopControllers() {
      await running?.stop();
      running = undefined;
    },
    configMap: (namespace, name, meta = {}) =>
      f.registry('configmaps').create(
        f.ctx(namespace),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name,
            ...(meta.owners ? { ownerReferences: meta.owners } : {}),
            ...(meta.finalizers ? { finalizers: meta.finalizers } : {}),
          },
        },
        { dryRun: false },
      ),
    async find(resource, namespace, name) {
      try {
        return await f.registry(resource).get(f.ctx(namespace), name, {});
      } catch (e) {
        if (isStatus(e, 404)) return undefined;
        throw e;
      }
    },
    ownerRef: (obj, extra = {}) => ({
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name ?? '',
      uid: obj.metadata.uid ?? '',
      ...extra,
    }),
  };
}

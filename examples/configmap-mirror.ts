/**
 * An example controller written with Orch's client library: it mirrors every ConfigMap labelled
 * `mirror=true` in one namespace into another, and removes the copy when the source goes away or
 * loses the label. An informer keeps a local cache of ConfigMaps and queues the names that
 * changed; a worker makes each copy match its source with server-side apply, over Protobuf.
 *
 * Run it against a server: `npx tsx examples/configmap-mirror.ts <kubeconfig> <from> <to>`.
 */
import { pathToFileURL } from 'node:url';
import { ORCH_DOMAIN } from '../src/apis/api-domain.js';
import type { ConfigMap } from '../src/apis/core/config-map.js';
import { StatusError } from '../src/apis/meta/status.js';
import type { ApiObject } from '../src/apis/object.js';
import { HttpApiClient } from '../src/client/api/http-api-client.js';
import { ResourceInformer } from '../src/client/informer/resource-informer.js';
import { WorkQueue } from '../src/client/queue/work-queue.js';
import { loadKubeconfig } from '../src/client/rest/kubeconfig.js';
import { ConfigMaps } from '../src/client/typed/builtin-types.js';
import { jsonLogger } from '../src/util/logger.js';

export interface MirrorOptions {
  /** Path of the client configuration (kubeconfig) file. */
  readonly kubeconfig: string;
  /** Namespace of the source ConfigMaps, and of their copies. */
  readonly from: string;
  readonly to: string;
  /** Stops the controller. */
  readonly signal: AbortSignal;
}

const MIRRORED_FROM = 'mirrored-from';

/** Runs the controller until `signal` aborts. */
export async function runConfigMapMirror(o: MirrorOptions): Promise<void> {
  const logger = jsonLogger();
  const client = await HttpApiClient.connect(
    {
      config: await loadKubeconfig(o.kubeconfig),
      domain: ORCH_DOMAIN,
      fieldManager: 'configmap-mirror',
      contentType: 'application/vnd.kubernetes.protobuf',
    },
    o.signal,
  );
  const configMaps = client.typed(ConfigMaps);
  const informer = new ResourceInformer({ client: client.resource('', 'v1', 'configmaps')!, logger, signal: o.signal });
  const queue = new WorkQueue<string>({ signal: o.signal });
  // A change to a source or to a copy queues its name; the worker compares the two.
  const enqueue = (obj: ApiObject) => {
    const ns = obj.metadata.namespace;
    if (ns === o.from || ns === o.to) queue.add(obj.metadata.name ?? '');
  };
  informer.addHandlers({ onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj), onDelete: enqueue });
  informer.start();
  try {
    await informer.synced();
    await queue.run(
      async (name) => {
        const source = informer.get(o.from, name) as ConfigMap | undefined;
        const copy = informer.get(o.to, name) as ConfigMap | undefined;
        if (source?.metadata.labels?.mirror === 'true') {
          await configMaps.apply(
            o.to,
            { metadata: { name, labels: { [MIRRORED_FROM]: o.from } }, data: source.data ?? {} },
            { force: true },
            o.signal,
          );
        } else if (copy?.metadata.labels?.[MIRRORED_FROM] === o.from) {
          await configMaps.delete(o.to, name, {}, o.signal).catch((e: unknown) => {
            if (!(e instanceof StatusError && e.code === 404)) throw e;
          });
        }
      },
      { onError: (name, e) => logger.warn('configmap-mirror: retrying', { name, error: String(e) }) },
    );
  } finally {
    await informer.stopped();
    client.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [kubeconfig, from, to] = process.argv.slice(2);
  if (!kubeconfig || !from || !to) {
    process.stderr.write('usage: configmap-mirror <kubeconfig> <from-namespace> <to-namespace>\n');
    process.exit(2);
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  await runConfigMapMirror({ kubeconfig, from, to, signal: stop.signal });
}

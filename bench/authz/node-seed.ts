import { type Creds, inParallel, post } from './seed-http.js';

export const NODES = 100;
export const PODS = 1000;
export const NODE_NAMESPACE = 'node-bench';
/** The node the bench GETs as, and the secret of one of its pods. */
export const BENCH_NODE = 'node-7';
export const BENCH_SECRET = 'secret-7';

/**
 * 1,000 pods bound round-robin to 100 nodes (`pod-i` on `node-(i mod 100)`), each with its own
 * secret volume, an env secret shared by the pods of its node and a pull secret shared by all,
 * and the secrets themselves: the Node authorizer's graph holds 1,000 pods and 1,101 secrets.
 */
export async function seedNodeGraph(base: string, admin: Creds): Promise<void> {
  await post(base, admin, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NODE_NAMESPACE },
  });
  const secret = (name: string) => () =>
    post(base, admin, `/api/v1/namespaces/${NODE_NAMESPACE}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      stringData: { token: `value-of-${name}` },
    });
  const jobs: (() => Promise<unknown>)[] = [secret('registry')];
  for (let n = 0; n < NODES; n++) jobs.push(secret(`node-secret-${n}`));
  for (let i = 0; i < PODS; i++) {
    const node = i % NODES;
    jobs.push(secret(`secret-${i}`));
    jobs.push(() =>
      post(base, admin, `/api/v1/namespaces/${NODE_NAMESPACE}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `pod-${i}` },
        spec: {
          nodeName: `node-${node}`,
          imagePullSecrets: [{ name: 'registry' }],
          containers: [
            {
              name: 'app',
              image: 'busybox',
              env: [{ name: 'NODE_TOKEN', valueFrom: { secretKeyRef: { name: `node-secret-${node}`, key: 'token' } } }],
            },
          ],
          volumes: [{ name: 'own', secret: { secretName: `secret-${i}` } }],
        },
      }),
    );
  }
  await inParallel(jobs, 16);
}

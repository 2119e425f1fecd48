import { ORCH_DOMAIN } from '../../../apis/api-domain.js';
import type { ApiObject } from '../../../apis/object.js';

/**
 * Rich objects of the Service-area kinds (Service, Endpoints, EndpointSlice, Ingress,
 * IngressClass, NetworkPolicy) for codec tests, every field set, keys in schema order.
 * `metadata` comes from the caller (`richMetadata`).
 */
export function serviceAreaObjects(
  meta: (name: string, namespace?: string) => Record<string, unknown>,
): Record<string, ApiObject> {
  const networking = `${ORCH_DOMAIN.group('networking')}/v1`;
  const targetRef = {
    kind: 'Pod',
    namespace: 'default',
    name: 'web-0',
    uid: '0b3e4a52-0000-4000-8000-000000000010',
    apiVersion: 'v1',
    resourceVersion: '42',
    fieldPath: 'spec.containers{web}',
  };
  const selector = {
    matchLabels: { app: 'web', tier: '' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'staging'] },
      { key: 'canary', operator: 'DoesNotExist' },
    ],
  };
  const backend = { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'static' } };
  return {
    Service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('web', 'default'),
      spec: {
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080, appProtocol: 'http' },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 'dns', nodePort: 30053 },
        ],
        selector: { app: 'web' },
        clusterIP: '10.0.0.10',
        type: 'LoadBalancer',
        externalIPs: ['192.0.2.1'],
        sessionAffinity: 'ClientIP',
        loadBalancerIP: '203.0.113.5',
        loadBalancerSourceRanges: ['10.0.0.0/8'],
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 31000,
        publishNotReadyAddresses: true,
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } },
        ipFamilyPolicy: 'PreferDualStack',
        clusterIPs: ['10.0.0.10', 'fd00::10'],
        ipFamilies: ['IPv4', 'IPv6'],
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'example.com/lb',
        internalTrafficPolicy: 'Local',
        trafficDistribution: 'PreferClose',
      },
      status: {
        loadBalancer: {
          ingress: [
            { ip: '203.0.113.5', ipMode: 'Proxy', ports: [{ port: 80, protocol: 'TCP', error: 'Pending' }] },
            { hostname: 'lb.example.com' },
          ],
        },
        conditions: [
          {
            type: 'LoadBalancerReady',
            status: 'False',
            observedGeneration: -1,
            lastTransitionTime: '2024-05-06T07:08:10Z',
            reason: 'Provisioning',
            message: 'waiting',
          },
        ],
      },
    },
    Endpoints: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('web', 'default'),
      subsets: [
        {
          addresses: [{ ip: '10.244.0.5', targetRef, hostname: 'web-0', nodeName: 'node-a' }],
          notReadyAddresses: [{ ip: 'fd00::5' }],
          ports: [
            { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
            { name: 'dns', port: 53, protocol: 'UDP' },
          ],
        },
        { addresses: [{ ip: '10.244.0.6' }] },
      ],
    },
    EndpointSlice: {
      apiVersion: `${ORCH_DOMAIN.group('discovery')}/v1`,
      kind: 'EndpointSlice',
      metadata: meta('web-abcde', 'default'),
      // Go declares addressType (protobuf field 4) first.
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.244.0.5'],
          conditions: { ready: true, serving: false, terminating: false },
          hostname: 'web-0',
          targetRef,
          deprecatedTopology: { 'topology.example.com/rack': 'r1' },
          nodeName: 'node-a',
          zone: 'zone-1',
          hints: { forZones: [{ name: 'zone-1' }, { name: 'zone-2' }] },
        },
        { addresses: ['10.244.0.6', '10.244.0.7'], conditions: {} },
      ],
      ports: [
        { name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' },
        { name: '', protocol: 'UDP', port: 0 },
      ],
    },
    Ingress: {
      apiVersion: networking,
      kind: 'Ingress',
      metadata: meta('web', 'default'),
      spec: {
        defaultBackend: backend,
        tls: [{ hosts: ['a.example.com', '*.b.example.com'], secretName: 'tls' }, {}],
        rules: [
          {
            host: 'a.example.com',
            http: {
              paths: [
                { path: '/', backend: { service: { name: 'web', port: { number: 80 } } }, pathType: 'Prefix' },
                { path: '/api', backend: { service: { name: 'api', port: { name: 'http' } } }, pathType: 'Exact' },
                { backend, pathType: 'ImplementationSpecific' },
              ],
            },
          },
          { host: '*.b.example.com' },
        ],
        ingressClassName: 'nginx',
      },
      status: {
        loadBalancer: {
          ingress: [
            { ip: '203.0.113.9', ports: [{ port: 443, protocol: 'TCP', error: 'Unreachable' }] },
            { hostname: 'x.example.com' },
          ],
        },
      },
    },
    IngressClass: {
      apiVersion: networking,
      kind: 'IngressClass',
      metadata: meta('nginx'),
      spec: {
        controller: 'example.com/ingress-nginx',
        parameters: {
          apiGroup: 'k8s.example.com',
          kind: 'IngressParameters',
          name: 'external',
          scope: 'Namespace',
          namespace: 'ingress',
        },
      },
    },
    NetworkPolicy: {
      apiVersion: networking,
      kind: 'NetworkPolicy',
      metadata: meta('deny', 'default'),
      spec: {
        podSelector: selector,
        ingress: [
          {
            ports: [
              { protocol: 'TCP', port: 80, endPort: 90 },
              { protocol: 'UDP', port: 'dns' },
            ],
            from: [
              { podSelector: selector, namespaceSelector: { matchLabels: { team: 'a' } } },
              { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } },
            ],
          },
          {},
        ],
        egress: [{ ports: [{ port: 443 }], to: [{ namespaceSelector: {} }] }],
        policyTypes: ['Ingress', 'Egress'],
      },
    },
  };
}

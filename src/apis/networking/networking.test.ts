import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, formatFieldError } from '../meta/field-error.js';
import { validateIngressClass, validateIngressClassUpdate } from './ingress-class-validation.js';
import { validateIngressCreate, validateIngressStatusUpdate, validateIngressUpdate } from './ingress-validation.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation.js';
import {
  formatIngressHosts,
  ingressClassTableColumns,
  ingressTableColumns,
  networkPolicyTableColumns,
} from './networking-columns.js';
import { defaultIngressClass, defaultNetworkPolicy } from './networking-defaults.js';
import type { Ingress, IngressClass, NetworkPolicy } from './networking-types.js';

const ANNOTATION = 'kubernetes.io/ingress.class';
const NOW = new Date('2024-05-01T12:00:00Z');
const meta = { name: 'x', namespace: 'ns', creationTimestamp: '2024-05-01T11:59:00Z' };
const ing = (spec: Ingress['spec'], extra: Partial<Ingress> = {}): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { ...meta },
  spec,
  ...extra,
});
const backend = { service: { name: 'web', port: { number: 80 } } };
const errs = (list: FieldError[]) => list.map(formatFieldError);

describe('Ingress validation', () => {
  const cases: [string, Ingress, string[]][] = [
    ['a default backend', ing({ defaultBackend: backend }), []],
    [
      'neither backend nor rules',
      ing({}),
      ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified'],
    ],
    [
      'rules with bad hosts, paths and backends',
      ing({
        rules: [
          { host: '1.2.3.4', http: { paths: [{ path: 'no-slash', pathType: 'Prefix', backend }] } },
          {
            host: '*.example.com',
            http: {
              paths: [
                {
                  path: '/a//b',
                  pathType: 'Exact',
                  backend: { service: { name: '9web', port: { name: 'http', number: 80 } } },
                },
              ],
            },
          },
          {
            host: 'ok.example.com',
            http: { paths: [{ path: '/', pathType: 'Sometimes', backend: {} }, { path: '/x' }] },
          },
          { http: { paths: [] } },
        ],
      }),
      [
        'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
        'spec.rules[0].http.paths[0].path: Invalid value: "no-slash": must be an absolute path',
        'spec.rules[1].http.paths[0].path: Invalid value: "/a//b": must not contain \'//\'',
        `spec.rules[1].http.paths[0].backend.service.name: Invalid value: "9web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        'spec.rules[1].http.paths[0].backend: Invalid value: "": cannot set both port name & port number',
        'spec.rules[2].http.paths[0].pathType: Unsupported value: "Sometimes": supported values: "Exact", "ImplementationSpecific", "Prefix"',
        'spec.rules[2].http.paths[0].backend: Invalid value: "": resource or service backend is required',
        'spec.rules[2].http.paths[1].pathType: Required value: pathType must be specified',
        'spec.rules[3].http.paths: Required value',
      ],
    ],
    [
      'the class annotation must agree with ingressClassName',
      ing(
        { defaultBackend: backend, ingressClassName: 'nginx' },
        { metadata: { ...meta, annotations: { [ANNOTATION]: 'traefik' } } },
      ),
      [
        'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
      ],
    ],
    [
      'TLS hosts and secret names',
      ing({ defaultBackend: backend, tls: [{ hosts: ['*.a.example', 'b_c'], secretName: 'Bad' }] }),
      [
        `spec.tls[0].hosts[1]: Invalid value: "b_c": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        `spec.tls[0].secretName: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
  ];
  for (const [name, obj, want] of cases)
    it(name, () => assert.deepEqual(errs(validateIngressCreate(obj, ANNOTATION)), want));
  it('an update keeps allowing an invalid secret name already stored', () => {
    const old = ing({ defaultBackend: backend, tls: [{ secretName: 'Bad' }] });
    assert.deepEqual(errs(validateIngressUpdate(structuredClone(old), old)), []);
  });
  it('status ingress points are addresses', () => {
    const s = ing(
      { defaultBackend: backend },
      { status: { loadBalancer: { ingress: [{ ip: 'x' }, { hostname: '1.1.1.1' }] } } },
    );
    assert.deepEqual(errs(validateIngressStatusUpdate(s)), [
      'status.loadBalancer.ingress[0].ip: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "1.1.1.1": must be a DNS name, not an IP address',
    ]);
  });
});

describe('IngressClass', () => {
  const ic = (spec: IngressClass['spec']): IngressClass => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'c' },
    spec,
  });
  it('defaults a parameters scope to Cluster', () => {
    const c = ic({ controller: 'example.com/ingress', parameters: { kind: 'Config', name: 'p' } });
    defaultIngressClass(c);
    assert.equal(c.spec?.parameters?.scope, 'Cluster');
  });
  const cases: [string, IngressClass, string[]][] = [
    [
      'valid',
      ic({
        controller: 'example.com/ingress',
        parameters: { kind: 'Config', name: 'p', scope: 'Namespace', namespace: 'ns' },
      }),
      [],
    ],
    ['no controller', ic({}), ['spec.controller: Required value']],
    [
      'not domain-prefixed',
      ic({ controller: 'nginx' }),
      ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")'],
    ],
    [
      'parameters',
      ic({ controller: 'example.com/x', parameters: { kind: '', name: 'a/b', scope: 'Cluster', namespace: 'ns' } }),
      [
        'spec.parameters.kind: Required value',
        'spec.parameters.name: Invalid value: "a/b": may not contain \'/\'',
        "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
      ],
    ],
    [
      'a namespaced scope without a namespace',
      ic({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } }),
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.deepEqual(errs(validateIngressClass(obj)), want));
  it('the controller is immutable', () => {
    assert.deepEqual(
      errs(validateIngressClassUpdate(ic({ controller: 'example.com/b' }), ic({ controller: 'example.com/a' }))),
      ['spec.controller: Invalid value: "example.com/b": field is immutable'],
    );
  });
});

describe('NetworkPolicy', () => {
  const np = (spec: NetworkPolicy['spec']): NetworkPolicy => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { ...meta },
    spec,
  });
  it('defaults policy types, the pod selector and port protocols', () => {
    const p = np({ egress: [{ ports: [{ port: 53 }] }] });
    defaultNetworkPolicy(p);
    assert.deepEqual(p.spec, {
      podSelector: {},
      egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }],
      policyTypes: ['Ingress', 'Egress'],
    });
  });
  const cases: [string, NetworkPolicy, string[]][] = [
    [
      'valid',
      np({
        podSelector: { matchLabels: { app: 'a' } },
        ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }],
        policyTypes: ['Ingress'],
      }),
      [],
    ],
    [
      'ports and peers',
      np({
        podSelector: {},
        ingress: [
          {
            ports: [
              { protocol: 'ICMP', port: 0 },
              { port: 'http', endPort: 90 },
              { endPort: 5 },
              { port: 100, endPort: 50 },
            ],
            from: [
              {},
              { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } },
              { ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16', '10.0.0.0/8'] } },
            ],
          },
        ],
        policyTypes: ['Ingress', 'Sideways'],
      }),
      [
        'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
        'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
        'spec.ingress[0].ports[2].endPort: Invalid value: 5: may not be specified when `port` is not specified',
        'spec.ingress[0].ports[3].endPort: Invalid value: 50: must be greater than or equal to `port`',
        'spec.ingress[0].from[0]: Required value: must specify a peer',
        'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
        'spec.ingress[0].from[2].ipBlock.except[0]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
        'spec.ingress[0].from[2].ipBlock.except[1]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
        'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
      ],
    ],
    [
      'too many policy types',
      np({ podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] }),
      [
        'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
      ],
    ],
    [
      'a bad CIDR',
      np({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }),
      ['spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": not a valid CIDR'],
    ],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.deepEqual(errs(validateNetworkPolicy(obj)), want));
  it('an update keeps allowing selector values that were already invalid', () => {
    const old = np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] } });
    assert.deepEqual(errs(validateNetworkPolicyUpdate(structuredClone(old), old)), []);
    assert.equal(validateNetworkPolicy(old).length, 1);
  });
});

describe('networking columns', () => {
  it('Ingress: class, hosts, address, ports', () => {
    const obj = ing(
      {
        ingressClassName: 'nginx',
        rules: [{ host: 'a.example' }, {}, { host: 'c.example' }, { host: 'd.example' }, { host: 'e.example' }],
        tls: [{}],
      },
      { status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } } },
    );
    assert.deepEqual(ingressTableColumns().cells(obj, NOW), [
      'x',
      'nginx',
      'a.example,c.example,d.example + 2 more...',
      '5.6.7.8',
      '80, 443',
      '60s',
    ]);
    assert.equal(formatIngressHosts([]), '*');
  });
  it('IngressClass: controller and parameters', () => {
    const c: IngressClass = {
      apiVersion: 'v',
      kind: 'IngressClass',
      metadata: { name: 'c' },
      spec: { controller: 'x.io/c', parameters: { apiGroup: 'k.io', kind: 'Cfg', name: 'p' } },
    };
    assert.deepEqual(ingressClassTableColumns().cells(c, NOW).slice(0, 3), ['c', 'x.io/c', 'Cfg.k.io/p']);
  });
  it('NetworkPolicy: the pod selector', () => {
    const cells = (podSelector: NonNullable<NetworkPolicy['spec']>['podSelector']) =>
      networkPolicyTableColumns({}).cells(
        { apiVersion: 'v', kind: 'NetworkPolicy', metadata: { name: 'p' }, spec: { podSelector } },
        NOW,
      )[1];
    assert.equal(cells({}), '<none>');
    assert.equal(
      cells({ matchLabels: { app: 'a' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }),
      'app=a,tier in (x,y)',
    );
  });
});

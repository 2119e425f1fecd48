import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import { formatFieldError } from '../meta/field-error.js';
import { defaultService } from './service-defaults.js';
import { prepareServiceForCreate, prepareServiceForUpdate } from './service-normalize.js';
import type { Service, ServiceSpec } from './service-types.js';
import {
  serviceAnnotationKeys,
  validateService,
  validateServiceStatusUpdate,
  validateServiceUpdate,
} from './service-validation.js';

const keys = serviceAnnotationKeys(apiDomain('k8s.io'));

function svc(spec: ServiceSpec, extra: Partial<Service> = {}): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec, ...extra };
}

/** A create as the strategy runs it: defaults, normalization, validation. */
function create(s: Service): string[] {
  defaultService(s);
  prepareServiceForCreate(s);
  return validateService(s, keys).map(formatFieldError);
}

function update(s: Service, old: Service): string[] {
  defaultService(s);
  prepareServiceForUpdate(s, old);
  return validateServiceUpdate(s, old, keys).map(formatFieldError);
}

const PORT = { port: 80 };
const RANGE = 'must be between 1 and 65535, inclusive';

describe('Service defaults (SetDefaults_Service)', () => {
  it('fills type, affinity, protocol, targetPort and traffic policies', () => {
    const s = svc({
      ports: [{ port: 80 }, { port: 81, targetPort: 'http', protocol: 'UDP' }, { port: 82, targetPort: 0 }],
    });
    defaultService(s);
    assert.deepEqual(s.spec, {
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 81, targetPort: 'http', protocol: 'UDP' },
        { port: 82, protocol: 'TCP', targetPort: 82 },
      ],
    });
  });
  it('defaults NodePort and LoadBalancer services further', () => {
    const lb = svc(
      { type: 'LoadBalancer', ports: [PORT] },
      { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } },
    );
    defaultService(lb);
    assert.equal(lb.spec?.externalTrafficPolicy, 'Cluster');
    assert.equal(lb.spec?.allocateLoadBalancerNodePorts, true);
    assert.equal(lb.status?.loadBalancer?.ingress?.[0].ipMode, 'VIP');
    const np = svc({ type: 'NodePort', ports: [PORT] });
    defaultService(np);
    assert.equal(np.spec?.externalTrafficPolicy, 'Cluster');
    assert.equal(np.spec?.allocateLoadBalancerNodePorts, undefined);
    const ext = svc({ type: 'ExternalName', externalName: 'example.com' });
    defaultService(ext);
    assert.equal(ext.spec?.internalTrafficPolicy, undefined);
  });
  it('gives ClientIP affinity its 3-hour timeout and drops a config under None', () => {
    const a = svc({ sessionAffinity: 'ClientIP', ports: [PORT] });
    defaultService(a);
    assert.deepEqual(a.spec?.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    const b = svc({
      sessionAffinity: 'None',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } },
      ports: [PORT],
    });
    defaultService(b);
    assert.equal(b.spec?.sessionAffinityConfig, undefined);
  });
  it('leaves fields of the wrong type for validation', () => {
    const s = { apiVersion: 'v1', kind: 'Service', metadata: {}, spec: { ports: 7 } } as unknown as Service;
    assert.doesNotThrow(() => defaultService(s));
    const t = { apiVersion: 'v1', kind: 'Service', metadata: {}, spec: 'x' } as unknown as Service;
    assert.doesNotThrow(() => defaultService(t));
  });
});

describe('Service validation on create (all errors at once)', () => {
  const cases: { name: string; svc: Service; want: string[] }[] = [
    { name: 'a plain ClusterIP service', svc: svc({ ports: [PORT], selector: { app: 'web' } }), want: [] },
    { name: 'headless without ports', svc: svc({ clusterIP: 'None' }), want: [] },
    { name: 'no ports', svc: svc({}), want: ['spec.ports: Required value'] },
    {
      name: 'port out of range, bad names, duplicates',
      svc: svc({
        ports: [
          { port: 0 },
          { name: 'http', port: 80 },
          { name: 'http', port: 80, targetPort: 70000 },
          { name: 'Bad_Name', port: 81, protocol: 'ICMP', targetPort: 'no_way' },
        ],
      }),
      want: [
        'spec.ports[0].name: Required value',
        `spec.ports[0].port: Invalid value: 0: ${RANGE}`,
        // The target port defaulted to the (invalid) port.
        `spec.ports[0].targetPort: Invalid value: 0: ${RANGE}`,
        'spec.ports[2].name: Duplicate value: "http"',
        `spec.ports[2].targetPort: Invalid value: 70000: ${RANGE}`,
        `spec.ports[3].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        'spec.ports[3].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ports[3].targetPort: Invalid value: "no_way": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.ports[2]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      ],
    },
    {
      name: 'unknown type and affinity',
      svc: svc({ type: 'Magic', sessionAffinity: 'Sticky', ports: [PORT] }),
      want: [
        'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    },
    {
      name: 'ExternalName needs a name and no cluster IP',
      svc: svc({ type: 'ExternalName', clusterIP: '10.0.0.9' }),
      want: [
        'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
        'spec.externalName: Required value',
      ],
    },
    {
      name: 'ExternalName with a bad name',
      svc: svc({ type: 'ExternalName', externalName: 'Not A Host' }),
      want: [
        `spec.externalName: Invalid value: "Not A Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'ExternalName with a trailing dot',
      svc: svc({ type: 'ExternalName', externalName: 'example.com.' }),
      want: [],
    },
    {
      name: 'nodePort on a ClusterIP service',
      svc: svc({ ports: [{ port: 80, nodePort: 30080 }] }),
      want: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    },
    {
      name: 'headless NodePort',
      svc: svc({ type: 'NodePort', clusterIP: 'None', ports: [PORT] }),
      want: ['spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services'],
    },
    {
      name: 'duplicate node ports',
      svc: svc({
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80, nodePort: 30001 },
          { name: 'b', port: 81, nodePort: 30001 },
        ],
      }),
      want: ['spec.ports[1].nodePort: Duplicate value: 30001'],
    },
    {
      name: 'a bad cluster IP',
      svc: svc({ clusterIP: '10.0.0.300', ports: [PORT] }),
      want: [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    },
    {
      name: 'cluster IPs that disagree',
      svc: svc({
        clusterIP: '10.0.0.5',
        clusterIPs: ['10.0.0.6', '10.0.0.7'],
        ipFamilies: ['IPv4', 'IPv5'],
        ports: [PORT],
      }),
      want: [
        'spec.clusterIPs: Invalid value: []string{"10.0.0.6", "10.0.0.7"}: first value must match `clusterIP`',
        'spec.ipFamilies[1]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
        'spec.clusterIPs: Invalid value: []string{"10.0.0.6", "10.0.0.7"}: may specify no more than one IP for each IP family',
      ],
    },
    {
      name: 'an IPv6 address for an IPv4 family',
      svc: svc({ clusterIP: 'fd00::5', ipFamilies: ['IPv4'], ipFamilyPolicy: 'Sometimes', ports: [PORT] }),
      want: [
        'spec.ipFamilyPolicy: Unsupported value: "Sometimes": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
        'spec.clusterIPs[0]: Invalid value: "fd00::5": expected an IPv4 value as indicated by `ipFamilies[0]`',
      ],
    },
    {
      name: 'special external IPs and selector labels',
      svc: svc({ externalIPs: ['127.0.0.1', 'x'], selector: { 'a b': 'c' }, ports: [PORT] }),
      want: [
        `spec.selector: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'spec.externalIPs[1]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    },
    {
      name: 'load-balancer-only fields on a ClusterIP service',
      svc: svc({
        ports: [PORT],
        loadBalancerSourceRanges: ['10.0.0.0/8', 'nope'],
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'x/y',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 31000,
      }),
      want: [
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
        'spec.LoadBalancerSourceRanges[1]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
        "spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ],
    },
    {
      name: 'a ClientIP affinity timeout out of range',
      svc: svc({
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } },
        ports: [PORT],
      }),
      want: [
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400',
      ],
    },
    {
      name: 'topology annotations that disagree',
      svc: svc(
        { ports: [PORT] },
        {
          metadata: {
            name: 'web',
            annotations: {
              'service.kubernetes.io/topology-mode': 'Auto',
              'service.kubernetes.io/topology-aware-hints': 'Off',
            },
          },
        },
      ),
      want: [
        'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
      ],
    },
    {
      name: 'an unknown traffic distribution',
      svc: svc({ ports: [PORT], trafficDistribution: 'Anywhere' }),
      want: ['spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(c.svc), c.want));
  }
  it('a create drops any status the client sent and fills clusterIPs from clusterIP', () => {
    const s = svc(
      { clusterIP: '10.0.0.7', ports: [PORT] },
      { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } },
    );
    assert.deepEqual(create(s), []);
    assert.deepEqual(s.status, { loadBalancer: {} });
    assert.deepEqual(s.spec?.clusterIPs, ['10.0.0.7']);
  });
});

function stored(spec: ServiceSpec): Service {
  const s = svc(spec);
  defaultService(s);
  return s;
}

describe('Service validation on update', () => {
  const allocated = () =>
    stored({
      type: 'NodePort',
      clusterIP: '10.0.0.10',
      clusterIPs: ['10.0.0.10'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'http', port: 80, nodePort: 30080 }],
    });
  it('resubmitting the original manifest keeps allocated values', () => {
    const s = svc({ type: 'NodePort', ports: [{ name: 'http', port: 80 }] });
    assert.deepEqual(update(s, allocated()), []);
    assert.equal(s.spec?.clusterIP, '10.0.0.10');
    assert.deepEqual(s.spec?.clusterIPs, ['10.0.0.10']);
    assert.equal(s.spec?.ports?.[0].nodePort, 30080);
  });
  it('a cluster IP cannot change', () => {
    const s = svc({ type: 'NodePort', clusterIP: '10.0.0.11', ports: [{ name: 'http', port: 80 }] });
    assert.deepEqual(update(s, allocated()), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.11"}: may not change once set',
    ]);
  });
  it('switching to ClusterIP drops node ports and the external traffic policy', () => {
    const s = structuredClone(allocated());
    s.spec!.type = 'ClusterIP';
    assert.deepEqual(update(s, allocated()), []);
    assert.equal(s.spec?.ports?.[0].nodePort, undefined);
    assert.equal(s.spec?.externalTrafficPolicy, undefined);
  });
  it('switching to ExternalName drops the cluster IPs and families', () => {
    const s = structuredClone(allocated());
    s.spec!.type = 'ExternalName';
    s.spec!.externalName = 'db.example.com';
    assert.deepEqual(update(s, allocated()), []);
    assert.equal(s.spec?.clusterIP, undefined);
    assert.equal(s.spec?.clusterIPs, undefined);
    assert.equal(s.spec?.ipFamilies, undefined);
    assert.equal(s.spec?.ipFamilyPolicy, undefined);
  });
  it('switching from ExternalName may set a cluster IP', () => {
    const old = stored({ type: 'ExternalName', externalName: 'db.example.com' });
    const s = svc({ type: 'ClusterIP', clusterIP: '10.0.0.20', ports: [PORT] });
    assert.deepEqual(update(s, old), []);
  });
  it('the health check node port is immutable while needed', () => {
    const old = stored({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 31000,
      ports: [PORT],
    });
    const s = structuredClone(old);
    s.spec!.healthCheckNodePort = 31001;
    assert.deepEqual(update(s, old), ['spec.healthCheckNodePort: Forbidden: field is immutable']);
  });
  it('an update keeps the stored status', () => {
    const old = stored({ type: 'LoadBalancer', ports: [PORT] });
    old.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } };
    const s = svc({ type: 'LoadBalancer', ports: [PORT] }, { status: { loadBalancer: {} } });
    update(s, old);
    assert.deepEqual(s.status, old.status);
  });
});

describe('Service status validation', () => {
  const cases: { name: string; svc: Service; want: string[] }[] = [
    {
      name: 'ingress on a ClusterIP service',
      svc: svc({ type: 'ClusterIP' }, { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } } }),
      want: ["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"],
    },
    {
      name: 'bad ingress points',
      svc: svc(
        { type: 'LoadBalancer' },
        {
          status: {
            loadBalancer: {
              ingress: [{ ip: 'x', ipMode: 'Warp' }, { hostname: '1.2.3.4', ipMode: 'VIP' }, { ip: '1.2.3.4' }],
            },
          },
        },
      ),
      want: [
        'status.loadBalancer.ingress[0].ip: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'status.loadBalancer.ingress[0].ipMode: Unsupported value: "Warp": supported values: "Proxy", "VIP"',
        'status.loadBalancer.ingress[1].ipMode: Forbidden: may not be specified when `ip` is not set',
        'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
        'status.loadBalancer.ingress[2].ipMode: Required value: must be specified when `ip` is set',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateServiceStatusUpdate(c.svc).map(formatFieldError), c.want));
  }
});

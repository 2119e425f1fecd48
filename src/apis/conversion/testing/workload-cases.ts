/** Conversion test cases of the networking and apps groups. */
import { MAX_INT32 } from '../apps-conversion.js';
import { type CaseContext, type ConversionCase, obj, podTemplate } from './case-support.js';

export function workloadCases(c: CaseContext): ConversionCase[] {
  const { g, ns, app } = c;
  return [
    // networking
    {
      name: 'extensions/v1beta1 Ingress: backend, service name and port number, default pathType',
      input: obj(
        'extensions/v1beta1',
        'Ingress',
        'ing',
        {
          spec: {
            backend: { serviceName: 'default-backend', servicePort: 80 },
            rules: [
              {
                host: 'a.example.com',
                http: { paths: [{ path: '/api', backend: { serviceName: 'api', servicePort: 8080 } }] },
              },
            ],
          },
        },
        ns,
      ),
      expected: obj(
        `${g('networking')}/v1`,
        'Ingress',
        'ing',
        {
          spec: {
            defaultBackend: { service: { name: 'default-backend', port: { number: 80 } } },
            rules: [
              {
                host: 'a.example.com',
                http: {
                  paths: [
                    {
                      path: '/api',
                      backend: { service: { name: 'api', port: { number: 8080 } } },
                      pathType: 'ImplementationSpecific',
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'networking v1beta1 Ingress: named port, resource backend, explicit pathType, TLS and class kept',
      input: obj(
        `${g('networking')}/v1beta1`,
        'Ingress',
        'ing2',
        {
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['b.example.com'], secretName: 'tls' }],
            rules: [
              {
                host: 'b.example.com',
                http: {
                  paths: [
                    { path: '/', pathType: 'Prefix', backend: { serviceName: 'web', servicePort: 'http' } },
                    {
                      path: '/static',
                      pathType: 'Exact',
                      backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } },
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      target: `${g('networking')}/v1`,
      expected: obj(
        `${g('networking')}/v1`,
        'Ingress',
        'ing2',
        {
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['b.example.com'], secretName: 'tls' }],
            rules: [
              {
                host: 'b.example.com',
                http: {
                  paths: [
                    { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http' } } } },
                    {
                      path: '/static',
                      pathType: 'Exact',
                      backend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'b' } },
                    },
                  ],
                },
              },
            ],
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'networking v1beta1 IngressClass',
      input: obj(`${g('networking')}/v1beta1`, 'IngressClass', 'nginx', {
        spec: { controller: 'example.com/ingress' },
      }),
      expected: obj(`${g('networking')}/v1`, 'IngressClass', 'nginx', { spec: { controller: 'example.com/ingress' } }),
      served: true,
    },
    {
      name: 'extensions/v1beta1 NetworkPolicy',
      input: obj(
        'extensions/v1beta1',
        'NetworkPolicy',
        'deny',
        { spec: { podSelector: { matchLabels: app }, policyTypes: ['Ingress'] } },
        ns,
      ),
      expected: obj(
        `${g('networking')}/v1`,
        'NetworkPolicy',
        'deny',
        { spec: { podSelector: { matchLabels: app }, policyTypes: ['Ingress'] } },
        ns,
      ),
      served: true,
    },
    // apps
    {
      name: 'extensions/v1beta1 Deployment: selector and labels from the template, old defaults explicit, rollbackTo dropped',
      input: obj(
        'extensions/v1beta1',
        'Deployment',
        'web',
        { spec: { replicas: 2, rollbackTo: { revision: 1 }, template: podTemplate(app) } },
        ns,
      ),
      target: 'apps/v1',
      expected: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: ns, labels: app },
        spec: {
          replicas: 2,
          template: podTemplate(app),
          revisionHistoryLimit: MAX_INT32,
          progressDeadlineSeconds: MAX_INT32,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
          selector: { matchLabels: app },
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta1 Deployment: Recreate kept, 2 revisions, labels kept',
      input: {
        apiVersion: 'apps/v1beta1',
        kind: 'Deployment',
        metadata: { name: 'web1', namespace: ns, labels: { tier: 'front' } },
        spec: { selector: { matchLabels: app }, strategy: { type: 'Recreate' }, template: podTemplate(app) },
      },
      target: 'apps/v1',
      expected: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web1', namespace: ns, labels: { tier: 'front' } },
        spec: {
          selector: { matchLabels: app },
          strategy: { type: 'Recreate' },
          template: podTemplate(app),
          revisionHistoryLimit: 2,
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 Deployment: v1 shape',
      input: obj(
        'apps/v1beta2',
        'Deployment',
        'web2',
        { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'Deployment',
        'web2',
        { spec: { selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      served: true,
    },
    {
      name: 'extensions/v1beta1 DaemonSet: OnDelete by default, templateGeneration dropped',
      input: obj(
        'extensions/v1beta1',
        'DaemonSet',
        'agent',
        { spec: { templateGeneration: 3, template: podTemplate(app) } },
        ns,
      ),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'agent', namespace: ns, labels: app },
        spec: { template: podTemplate(app), updateStrategy: { type: 'OnDelete' }, selector: { matchLabels: app } },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 DaemonSet: rolling update kept',
      input: obj(
        'apps/v1beta2',
        'DaemonSet',
        'agent2',
        {
          spec: {
            selector: { matchLabels: app },
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
            template: podTemplate(app),
          },
        },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'DaemonSet',
        'agent2',
        {
          spec: {
            selector: { matchLabels: app },
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
            template: podTemplate(app),
          },
        },
        ns,
      ),
      served: true,
    },
    {
      name: 'apps/v1beta1 StatefulSet: OnDelete by default, selector and labels from the template',
      input: obj('apps/v1beta1', 'StatefulSet', 'db', { spec: { serviceName: 'db', template: podTemplate(app) } }, ns),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: ns, labels: app },
        spec: {
          serviceName: 'db',
          template: podTemplate(app),
          updateStrategy: { type: 'OnDelete' },
          selector: { matchLabels: app },
        },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 StatefulSet: v1 shape',
      input: obj(
        'apps/v1beta2',
        'StatefulSet',
        'db2',
        { spec: { serviceName: 'db', selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      expected: obj(
        'apps/v1',
        'StatefulSet',
        'db2',
        { spec: { serviceName: 'db', selector: { matchLabels: app }, template: podTemplate(app) } },
        ns,
      ),
      served: true,
    },
    {
      name: 'extensions/v1beta1 ReplicaSet: selector and labels from the template',
      input: obj('extensions/v1beta1', 'ReplicaSet', 'rs', { spec: { replicas: 1, template: podTemplate(app) } }, ns),
      expected: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs', namespace: ns, labels: app },
        spec: { replicas: 1, template: podTemplate(app), selector: { matchLabels: app } },
      },
      served: true,
    },
    {
      name: 'apps/v1beta2 ControllerRevision',
      input: obj('apps/v1beta2', 'ControllerRevision', 'rev', { revision: 1, data: { a: 1 } }, ns),
      expected: obj('apps/v1', 'ControllerRevision', 'rev', { revision: 1, data: { a: 1 } }, ns),
      served: true,
    },
  ];
}

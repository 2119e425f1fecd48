/** Conversion test cases of the cluster-wide and access groups: rbac to apiregistration. */
import { type CaseContext, type ConversionCase, obj } from './case-support.js';

export function clusterCases(c: CaseContext): ConversionCase[] {
  const { g, ns, schema, csrRequest } = c;
  return [
    // rbac, scheduling, coordination, node, storage
    {
      name: 'rbac v1beta1 Role',
      input: obj(
        `${g('rbac.authorization')}/v1beta1`,
        'Role',
        'reader',
        { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        ns,
      ),
      expected: obj(
        `${g('rbac.authorization')}/v1`,
        'Role',
        'reader',
        { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        ns,
      ),
      served: true,
    },
    {
      name: 'rbac v1beta1 ClusterRoleBinding',
      input: obj(`${g('rbac.authorization')}/v1beta1`, 'ClusterRoleBinding', 'crb', {
        roleRef: { apiGroup: g('rbac.authorization'), kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: g('rbac.authorization'), name: 'alice' }],
      }),
      expected: obj(`${g('rbac.authorization')}/v1`, 'ClusterRoleBinding', 'crb', {
        roleRef: { apiGroup: g('rbac.authorization'), kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: g('rbac.authorization'), name: 'alice' }],
      }),
      served: true,
    },
    {
      name: 'scheduling v1beta1 PriorityClass',
      input: obj(`${g('scheduling')}/v1beta1`, 'PriorityClass', 'high', { value: 1000, description: 'high' }),
      expected: obj(`${g('scheduling')}/v1`, 'PriorityClass', 'high', { value: 1000, description: 'high' }),
      served: true,
    },
    {
      name: 'coordination v1beta1 Lease',
      input: obj(
        `${g('coordination')}/v1beta1`,
        'Lease',
        'lock',
        { spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
        ns,
      ),
      expected: obj(
        `${g('coordination')}/v1`,
        'Lease',
        'lock',
        { spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
        ns,
      ),
      served: true,
    },
    {
      name: 'node v1beta1 RuntimeClass',
      input: obj(`${g('node')}/v1beta1`, 'RuntimeClass', 'gvisor', { handler: 'runsc' }),
      expected: obj(`${g('node')}/v1`, 'RuntimeClass', 'gvisor', { handler: 'runsc' }),
      served: true,
    },
    {
      name: 'storage v1beta1 StorageClass',
      input: obj(`${g('storage')}/v1beta1`, 'StorageClass', 'fast', {
        provisioner: 'example.com/disk',
        reclaimPolicy: 'Retain',
      }),
      expected: obj(`${g('storage')}/v1`, 'StorageClass', 'fast', {
        provisioner: 'example.com/disk',
        reclaimPolicy: 'Retain',
      }),
      served: true,
    },
    {
      name: 'storage v1beta1 CSIDriver',
      input: obj(`${g('storage')}/v1beta1`, 'CSIDriver', 'disk.example.com', { spec: { attachRequired: false } }),
      expected: obj(`${g('storage')}/v1`, 'CSIDriver', 'disk.example.com', { spec: { attachRequired: false } }),
      served: true,
    },
    {
      name: 'storage v1beta1 CSIStorageCapacity',
      input: obj(
        `${g('storage')}/v1beta1`,
        'CSIStorageCapacity',
        'cap',
        { storageClassName: 'fast', capacity: '10Gi' },
        ns,
      ),
      expected: obj(
        `${g('storage')}/v1`,
        'CSIStorageCapacity',
        'cap',
        { storageClassName: 'fast', capacity: '10Gi' },
        ns,
      ),
      served: true,
    },
    {
      name: 'storage v1beta1 VolumeAttachment',
      input: obj(`${g('storage')}/v1beta1`, 'VolumeAttachment', 'va', {
        spec: { attacher: 'disk.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      }),
      expected: obj(`${g('storage')}/v1`, 'VolumeAttachment', 'va', {
        spec: { attacher: 'disk.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
      }),
      served: true,
    },
    // certificates
    {
      name: 'certificates v1beta1 CertificateSigningRequest: usages made explicit',
      input: obj(`${g('certificates')}/v1beta1`, 'CertificateSigningRequest', 'csr', {
        spec: { request: csrRequest, signerName: 'example.com/signer' },
      }),
      expected: obj(`${g('certificates')}/v1`, 'CertificateSigningRequest', 'csr', {
        spec: {
          request: csrRequest,
          signerName: 'example.com/signer',
          usages: ['digital signature', 'key encipherment'],
        },
      }),
      served: true,
    },
    // admissionregistration
    {
      name: 'admissionregistration v1beta1 ValidatingWebhookConfiguration: v1beta1 defaults explicit',
      input: obj(`${g('admissionregistration')}/v1beta1`, 'ValidatingWebhookConfiguration', 'vwc', {
        webhooks: [
          { name: 'check.example.com', sideEffects: 'None', clientConfig: { url: 'https://hook.example.com/check' } },
        ],
      }),
      expected: obj(`${g('admissionregistration')}/v1`, 'ValidatingWebhookConfiguration', 'vwc', {
        webhooks: [
          {
            name: 'check.example.com',
            sideEffects: 'None',
            clientConfig: { url: 'https://hook.example.com/check' },
            failurePolicy: 'Ignore',
            matchPolicy: 'Exact',
            timeoutSeconds: 30,
            admissionReviewVersions: ['v1beta1'],
          },
        ],
      }),
      served: false,
    },
    {
      name: 'admissionregistration v1beta1 MutatingWebhookConfiguration: explicit values kept',
      input: obj(`${g('admissionregistration')}/v1beta1`, 'MutatingWebhookConfiguration', 'mwc', {
        webhooks: [
          {
            name: 'mutate.example.com',
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            timeoutSeconds: 5,
            admissionReviewVersions: ['v1', 'v1beta1'],
            clientConfig: { service: { namespace: ns, name: 'hook' } },
          },
        ],
      }),
      expected: obj(`${g('admissionregistration')}/v1`, 'MutatingWebhookConfiguration', 'mwc', {
        webhooks: [
          {
            name: 'mutate.example.com',
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            timeoutSeconds: 5,
            admissionReviewVersions: ['v1', 'v1beta1'],
            clientConfig: { service: { namespace: ns, name: 'hook' } },
          },
        ],
      }),
      served: false,
    },
    // apiextensions
    {
      name: 'apiextensions v1beta1 CustomResourceDefinition: CRD-wide fields into versions, conversion webhook moved',
      input: obj(`${g('apiextensions')}/v1beta1`, 'CustomResourceDefinition', 'widgets.example.com', {
        spec: {
          group: 'example.com',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          version: 'v1',
          validation: schema,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
          conversion: {
            strategy: 'Webhook',
            webhookClientConfig: { service: { namespace: ns, name: 'conv', path: '/convert' } },
          },
        },
      }),
      expected: obj(`${g('apiextensions')}/v1`, 'CustomResourceDefinition', 'widgets.example.com', {
        spec: {
          group: 'example.com',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          conversion: {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { namespace: ns, name: 'conv', path: '/convert' } },
              conversionReviewVersions: ['v1beta1'],
            },
          },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema,
              subresources: { status: {} },
              additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
            },
          ],
        },
      }),
      served: true,
    },
    {
      name: 'apiextensions v1beta1 CustomResourceDefinition: per-version fields kept, cluster scope',
      input: obj(`${g('apiextensions')}/v1beta1`, 'CustomResourceDefinition', 'gadgets.example.com', {
        spec: {
          group: 'example.com',
          scope: 'Cluster',
          preserveUnknownFields: false,
          names: { plural: 'gadgets', kind: 'Gadget' },
          versions: [
            { name: 'v2', served: true, storage: true, schema },
            {
              name: 'v1',
              served: true,
              storage: false,
              schema,
              additionalPrinterColumns: [{ name: 'S', type: 'integer', JSONPath: '.spec.size' }],
            },
          ],
        },
      }),
      expected: obj(`${g('apiextensions')}/v1`, 'CustomResourceDefinition', 'gadgets.example.com', {
        spec: {
          group: 'example.com',
          scope: 'Cluster',
          names: { plural: 'gadgets', kind: 'Gadget' },
          versions: [
            { name: 'v2', served: true, storage: true, schema },
            {
              name: 'v1',
              served: true,
              storage: false,
              schema,
              additionalPrinterColumns: [{ name: 'S', type: 'integer', jsonPath: '.spec.size' }],
            },
          ],
        },
      }),
      served: true,
    },
    // flowcontrol
    {
      name: 'flowcontrol v1beta1 PriorityLevelConfiguration: unset assuredConcurrencyShares is an explicit 30',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta1`, 'PriorityLevelConfiguration', 'plc1', {
        spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc1', {
        spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' }, nominalConcurrencyShares: 30 } },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta2 PriorityLevelConfiguration: assuredConcurrencyShares renamed',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta2`, 'PriorityLevelConfiguration', 'plc2', {
        spec: {
          type: 'Limited',
          limited: { assuredConcurrencyShares: 5, lendablePercent: 10, limitResponse: { type: 'Reject' } },
        },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc2', {
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 5, lendablePercent: 10, limitResponse: { type: 'Reject' } },
        },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta3 PriorityLevelConfiguration: a zero (unset) share count is 30',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta3`, 'PriorityLevelConfiguration', 'plc3', {
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'PriorityLevelConfiguration', 'plc3', {
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Reject' } } },
      }),
      served: true,
    },
    {
      name: 'flowcontrol v1beta3 PriorityLevelConfiguration: a zero marked to be preserved stays 0',
      input: {
        apiVersion: `${g('flowcontrol.apiserver')}/v1beta3`,
        kind: 'PriorityLevelConfiguration',
        metadata: {
          name: 'plc4',
          annotations: { [`${g('flowcontrol')}/v1beta3-preserve-zero-concurrency-shares`]: '', team: 'a' },
        },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 0, lendablePercent: 100, limitResponse: { type: 'Reject' } },
        },
      },
      expected: {
        apiVersion: `${g('flowcontrol.apiserver')}/v1`,
        kind: 'PriorityLevelConfiguration',
        metadata: { name: 'plc4', annotations: { team: 'a' } },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 0, lendablePercent: 100, limitResponse: { type: 'Reject' } },
        },
      },
      served: true,
    },
    {
      name: 'flowcontrol v1beta3 FlowSchema',
      input: obj(`${g('flowcontrol.apiserver')}/v1beta3`, 'FlowSchema', 'fs', {
        spec: {
          priorityLevelConfiguration: { name: 'global-default' },
          matchingPrecedence: 5000,
          rules: [
            {
              subjects: [{ kind: 'Group', group: { name: 'devs' } }],
              nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
            },
          ],
        },
      }),
      expected: obj(`${g('flowcontrol.apiserver')}/v1`, 'FlowSchema', 'fs', {
        spec: {
          priorityLevelConfiguration: { name: 'global-default' },
          matchingPrecedence: 5000,
          rules: [
            {
              subjects: [{ kind: 'Group', group: { name: 'devs' } }],
              nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
            },
          ],
        },
      }),
      served: true,
    },
    // authorization, authentication, apiregistration
    {
      name: 'authorization v1beta1 SubjectAccessReview: group becomes groups',
      input: obj(`${g('authorization')}/v1beta1`, 'SubjectAccessReview', '', {
        spec: { user: 'alice', group: ['devs'], resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
      }),
      expected: obj(`${g('authorization')}/v1`, 'SubjectAccessReview', '', {
        spec: { user: 'alice', groups: ['devs'], resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
      }),
      served: true,
    },
    {
      name: 'authorization v1beta1 SelfSubjectAccessReview',
      input: obj(`${g('authorization')}/v1beta1`, 'SelfSubjectAccessReview', '', {
        spec: { nonResourceAttributes: { verb: 'get', path: '/api' } },
      }),
      expected: obj(`${g('authorization')}/v1`, 'SelfSubjectAccessReview', '', {
        spec: { nonResourceAttributes: { verb: 'get', path: '/api' } },
      }),
      served: true,
    },
    {
      name: 'authentication v1beta1 TokenReview',
      input: obj(`${g('authentication')}/v1beta1`, 'TokenReview', 'tr', { spec: { token: 'not-a-token' } }),
      expected: obj(`${g('authentication')}/v1`, 'TokenReview', 'tr', { spec: { token: 'not-a-token' } }),
      served: true,
    },
    {
      name: 'apiregistration v1beta1 APIService',
      input: obj(`${g('apiregistration')}/v1beta1`, 'APIService', 'v1.example.com', {
        spec: {
          group: 'example.com',
          version: 'v1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
          service: { namespace: ns, name: 'api' },
        },
      }),
      expected: obj(`${g('apiregistration')}/v1`, 'APIService', 'v1.example.com', {
        spec: {
          group: 'example.com',
          version: 'v1',
          groupPriorityMinimum: 100,
          versionPriority: 10,
          service: { namespace: ns, name: 'api' },
        },
      }),
      served: false,
    },
  ];
}

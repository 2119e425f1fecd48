import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import type { FieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { apfBootstrap, autoupdateSpecAnnotation } from './apf-bootstrap.js';
import { reviseIfNeeded, specEqualish, unwantedObjects } from './apf-ensure.js';
import { validateFlowSchema } from './flow-schema-validation.js';
import { flowSchemaTableColumns, priorityLevelTableColumns } from './flowcontrol-columns.js';
import { defaultFlowSchema, defaultPriorityLevel } from './flowcontrol-defaults.js';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol-types.js';
import { validatePriorityLevel } from './priority-level-validation.js';

const k8s = apiDomain('k8s.io');
const orch = apiDomain('orch.io');
const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

function pl(
  name: string,
  spec: PriorityLevelConfiguration['spec'],
  annotations?: Record<string, string>,
): PriorityLevelConfiguration {
  return { apiVersion: 'fc/v1', kind: 'PriorityLevelConfiguration', metadata: { name, annotations }, spec };
}
function fs(name: string, spec: FlowSchema['spec']): FlowSchema {
  return { apiVersion: 'fc/v1', kind: 'FlowSchema', metadata: { name }, spec };
}
const userRule = (extra: object = {}) => ({
  subjects: [{ kind: 'User', user: { name: 'noxu' } }],
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }],
  ...extra,
});

describe('flowcontrol defaults', () => {
  it('default unset shares to 30, keep an explicit 0, and fill lendablePercent and queuing', () => {
    const unset = pl('a', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 0 } } } });
    defaultPriorityLevel(unset);
    assert.deepEqual(unset.spec?.limited, {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    const zero = pl('b', {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } },
    });
    defaultPriorityLevel(zero);
    assert.equal(zero.spec?.limited?.nominalConcurrencyShares, 0);
    const exempt = pl('exempt', { type: 'Exempt', exempt: {} });
    defaultPriorityLevel(exempt);
    assert.deepEqual(exempt.spec?.exempt, { nominalConcurrencyShares: 0, lendablePercent: 0 });
  });
  it('default the matching precedence to 1000', () => {
    const f = fs('a', { priorityLevelConfiguration: { name: 'x' } });
    defaultFlowSchema(f);
    assert.equal(f.spec?.matchingPrecedence, 1000);
  });
});

describe('FlowSchema rules', () => {
  const cases: { name: string; obj: FlowSchema; want: string[] }[] = [
    {
      name: 'a valid schema',
      obj: fs('system-foo', {
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: 'system-bar' },
        rules: [userRule()],
      }),
      want: [],
    },
    {
      name: 'every problem at once',
      obj: fs('fred', {
        matchingPrecedence: 1,
        priorityLevelConfiguration: { name: 'system+++$$' },
        distinguisherMethod: { type: 'ByFoo' },
        rules: [
          { subjects: [{ kind: 'ServiceAccount', user: { name: 'x' } }] },
          {
            subjects: [{ kind: 'FooKind' }],
            resourceRules: [{ verbs: ['*', 'create'], apiGroups: ['*', 'tak'], resources: [], namespaces: ['-foo'] }],
            nonResourceRules: [{ verbs: ['feed'], nonResourceURLs: ['tik', '/a/*/b'] }],
          },
        ],
      }),
      want: [
        "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
        'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByFoo"}: supported values: "ByNamespace", "ByUser"',
        "spec.priorityLevelConfiguration.name: Invalid value: \"system+++$$\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
        "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
        'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
        'spec.rules[1].subjects[0].kind: Unsupported value: "FooKind": supported values: "Group", "ServiceAccount", "User"',
        'spec.rules[1].resourceRules[0].verbs: Invalid value: []string{"*", "create"}: if \'*\' is present, must not specify other verbs',
        'spec.rules[1].resourceRules[0].apiGroups: Invalid value: []string{"*", "tak"}: if \'*\' is present, must not specify other api groups',
        'spec.rules[1].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
        "spec.rules[1].resourceRules[0].namespaces[0]: Invalid value: \"-foo\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        'spec.rules[1].nonResourceRules[0].verbs: Unsupported value: []string{"feed"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
        'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "tik": must start with slash',
        'spec.rules[1].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
      ],
    },
    {
      name: 'a precedence above 10000 and a missing priority level',
      obj: fs('x', { matchingPrecedence: 10001, rules: [userRule()] }),
      want: [
        'spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000',
        'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(messages(validateFlowSchema(c.obj)), c.want));

  it('keep the mandatory schemas fixed', () => {
    const { mandatoryFlowSchemas } = apfBootstrap(k8s);
    for (const m of mandatoryFlowSchemas) assert.deepEqual(validateFlowSchema(m), [], m.metadata.name);
    const changed = structuredClone(mandatoryFlowSchemas[1]);
    if (changed.spec) changed.spec.matchingPrecedence = 9999;
    assert.deepEqual(
      messages(validateFlowSchema(changed)).map((m) => m.replace(/Invalid value: .*: spec/, 'Invalid value: …: spec')),
      ["spec: Invalid value: …: spec of 'catch-all' must equal the fixed value"],
    );
  });
});

describe('PriorityLevelConfiguration rules', () => {
  const queue = (queues: number, handSize: number, queueLengthLimit = 100) => ({
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 100,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } },
    },
  });
  const cases: { name: string; obj: PriorityLevelConfiguration; want: string[] }[] = [
    {
      name: 'a limited level with 0 shares',
      obj: pl('jail', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } }),
      want: [],
    },
    {
      name: 'negative shares, bad percents, queuing under Reject',
      obj: pl('x', {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: -1,
          lendablePercent: 101,
          borrowingLimitPercent: -1,
          limitResponse: { type: 'Reject', queuing: {} },
        },
      }),
      want: [
        'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
        'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
        'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
        'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
      ],
    },
    {
      name: 'shuffle sharding entropy',
      obj: pl('x', queue(512, 8)),
      want: [
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
      ],
    },
    {
      name: 'too many queues',
      obj: pl('x', queue(2147483647, 3)),
      want: [
        'spec.limited.limitResponse.queuing.queues: Invalid value: 2147483647: must not be greater than 10000000',
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 3: required entropy bits of deckSize 2147483647 and handSize 3 should not be greater than 60',
      ],
    },
    {
      name: 'hand larger than the deck',
      obj: pl('x', queue(7, 8)),
      want: ['spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)'],
    },
    { name: '10^7 queues and a hand of 2', obj: pl('x', queue(10_000_000, 2)), want: [] },
    {
      name: 'the exempt level repurposed',
      obj: pl('exempt', {
        type: 'Limited',
        exempt: {},
        limited: { nominalConcurrencyShares: 42, limitResponse: { type: 'Reject' } },
      }),
      want: [
        "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
        'spec.exempt: Forbidden: must be nil if the type is Limited',
        'spec: Invalid value: {"type":"Limited","exempt":{},"limited":{"nominalConcurrencyShares":42,"limitResponse":{"type":"Reject"}}}: spec of \'exempt\' except the \'spec.exempt\' field must equal the fixed value',
      ],
    },
    {
      name: 'the exempt level with other shares',
      obj: pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 10 } }),
      want: [],
    },
    {
      name: 'the exempt level with bad shares',
      obj: pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: -1 } }),
      want: [
        'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
        'spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive',
      ],
    },
    {
      name: 'a changed catch-all',
      obj: pl('catch-all', {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 42, lendablePercent: 0, limitResponse: { type: 'Reject' } },
      }),
      want: [
        'spec: Invalid value: {"type":"Limited","limited":{"nominalConcurrencyShares":42,"lendablePercent":0,"limitResponse":{"type":"Reject"}}}: spec of \'catch-all\' must equal the fixed value',
      ],
    },
    {
      name: 'the round-trip annotation',
      obj: pl(
        'x',
        { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } },
        {
          'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '',
        },
      ),
      want: [
        "metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
      ],
    },
    {
      name: 'an unknown type',
      obj: pl('x', { type: 'Bogus' }),
      want: ['spec.type: Unsupported value: "Bogus": supported values: "Exempt", "Limited"'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(messages(validatePriorityLevel(c.obj, k8s)), c.want));
});

describe('APF bootstrap configuration', () => {
  it("is kube v1.32's set, valid and already defaulted, under both domains", () => {
    for (const domain of [k8s, orch]) {
      const b = apfBootstrap(domain);
      assert.deepEqual(
        b.mandatoryPriorityLevels.map((o) => o.metadata.name),
        ['catch-all', 'exempt'],
      );
      assert.deepEqual(
        b.mandatoryFlowSchemas.map((o) => o.metadata.name),
        ['exempt', 'catch-all'],
      );
      assert.deepEqual(
        b.suggestedPriorityLevels.map((o) => o.metadata.name),
        ['system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default'],
      );
      assert.equal(b.suggestedFlowSchemas.length, 11);
      for (const o of [...b.mandatoryPriorityLevels, ...b.suggestedPriorityLevels]) {
        assert.deepEqual(validatePriorityLevel(o, domain), [], o.metadata.name);
        const copy = structuredClone(o);
        defaultPriorityLevel(copy);
        assert.deepEqual(copy, o, `${o.metadata.name} is defaulted`);
        assert.equal(o.metadata.annotations?.[autoupdateSpecAnnotation(domain)], 'true');
      }
      for (const o of [...b.mandatoryFlowSchemas, ...b.suggestedFlowSchemas]) {
        assert.deepEqual(validateFlowSchema(o), [], o.metadata.name);
      }
    }
  });
  it('names kube products through the domain', () => {
    const names = (d: typeof k8s) => apfBootstrap(d).suggestedFlowSchemas.map((o) => o.metadata.name);
    assert.ok(names(k8s).includes('kube-controller-manager') && names(k8s).includes('kube-system-service-accounts'));
    assert.ok(names(orch).includes('orch-controller-manager') && names(orch).includes('orch-system-service-accounts'));
    const le = apfBootstrap(k8s).suggestedFlowSchemas.find((o) => o.metadata.name === 'system-leader-election');
    assert.deepEqual(le?.spec?.rules?.[0].subjects, [
      { kind: 'User', user: { name: 'system:kube-controller-manager' } },
      { kind: 'User', user: { name: 'system:kube-scheduler' } },
      { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } },
    ]);
    assert.deepEqual(le?.spec?.rules?.[0].resourceRules?.[0].apiGroups, ['coordination.k8s.io']);
    assert.equal(autoupdateSpecAnnotation(k8s), 'apf.kubernetes.io/autoupdate-spec');
  });
});

describe('APF ensurer decisions', () => {
  const annotation = autoupdateSpecAnnotation(k8s);
  const boot = apfBootstrap(k8s);
  const bootstrap = boot.suggestedPriorityLevels[0];
  const withChanges = (generation: number, value?: string): ApiObject => {
    const o = structuredClone(bootstrap) as ApiObject;
    o.metadata.generation = generation;
    if (value === undefined) delete o.metadata.annotations?.[annotation];
    else o.metadata.annotations = { [annotation]: value };
    (o.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 77;
    return o;
  };
  it('restore a mandatory spec whatever the annotation says', () => {
    const current = structuredClone(boot.mandatoryPriorityLevels[0]) as ApiObject;
    current.metadata.annotations = { [annotation]: 'false' };
    (current.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 1;
    const revised = reviseIfNeeded('mandatory', current, boot.mandatoryPriorityLevels[0], annotation);
    assert.deepEqual(revised?.spec, boot.mandatoryPriorityLevels[0].spec);
    assert.equal(revised?.metadata.annotations?.[annotation], 'true');
  });
  const cases: [string, ApiObject, 'spec+annotation' | 'annotation' | 'none' | 'spec'][] = [
    ['suggested, annotated true', withChanges(5, 'true'), 'spec'],
    ['suggested, annotated false', withChanges(5, 'false'), 'none'],
    ['suggested, no annotation, changed by a user', withChanges(2), 'annotation'],
    ['suggested, malformed annotation, never changed', withChanges(1, 'yes'), 'spec+annotation'],
  ];
  for (const [name, current, want] of cases) {
    it(name, () => {
      const revised = reviseIfNeeded('suggested', current, bootstrap, annotation);
      const what = !revised
        ? 'none'
        : [
            jsonChanged(revised.spec, current.spec) ? 'spec' : '',
            jsonChanged(revised.metadata.annotations, current.metadata.annotations) ? 'annotation' : '',
          ]
            .filter(Boolean)
            .join('+');
      assert.equal(what, want);
      if (revised && want === 'annotation') assert.equal(revised.metadata.annotations?.[annotation], 'false');
    });
  }
  it('leave the exempt level its own exempt values', () => {
    const exempt = structuredClone(boot.mandatoryPriorityLevels[1]);
    exempt.spec = { type: 'Exempt', exempt: { nominalConcurrencyShares: 9, lendablePercent: 9 } };
    assert.ok(specEqualish('PriorityLevelConfiguration', boot.mandatoryPriorityLevels[1], exempt));
    assert.equal(reviseIfNeeded('mandatory', exempt, boot.mandatoryPriorityLevels[1], annotation), undefined);
  });
  it('remove only annotated objects that are no longer wanted', () => {
    const mk = (name: string, value?: string): ApiObject => ({
      apiVersion: 'v1',
      kind: 'FlowSchema',
      metadata: { name, annotations: value === undefined ? {} : { [annotation]: value } },
    });
    const current = [
      mk('global-default', 'true'),
      mk('old-one', 'true'),
      mk('mine'),
      mk('kept', 'false'),
      mk('odd', 'maybe'),
    ];
    assert.deepEqual(
      unwantedObjects(current, new Set(['global-default']), annotation).map((o) => o.metadata.name),
      ['old-one'],
    );
  });
});

function jsonChanged(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) !== JSON.stringify(b);
}

describe('flowcontrol columns', () => {
  it('FlowSchema', () => {
    const cols = flowSchemaTableColumns({});
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    );
    const [exempt, catchAll] = apfBootstrap(k8s).mandatoryFlowSchemas;
    assert.deepEqual(cols.cells(exempt, new Date()), ['exempt', 'exempt', 1, '<none>', '<unknown>', '?']);
    catchAll.status = { conditions: [{ type: 'Dangling', status: 'False' }] };
    assert.deepEqual(cols.cells(catchAll, new Date()), [
      'catch-all',
      'catch-all',
      10000,
      'ByUser',
      '<unknown>',
      'False',
    ]);
  });
  it('PriorityLevelConfiguration', () => {
    const cols = priorityLevelTableColumns({});
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
    );
    const b = apfBootstrap(k8s);
    assert.deepEqual(cols.cells(b.mandatoryPriorityLevels[1], new Date()), [
      'exempt',
      'Exempt',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
      '<unknown>',
    ]);
    assert.deepEqual(cols.cells(b.mandatoryPriorityLevels[0], new Date()), [
      'catch-all',
      'Limited',
      5,
      '<none>',
      '<none>',
      '<none>',
      '<unknown>',
    ]);
    assert.deepEqual(cols.cells(b.suggestedPriorityLevels[0], new Date()), [
      'system',
      'Limited',
      30,
      64,
      6,
      50,
      '<unknown>',
    ]);
  });
});

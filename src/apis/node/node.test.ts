import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../meta/field-error.js';
import { runtimeClassTableColumns } from './node-columns.js';
import { type RuntimeClass, validateRuntimeClass, validateRuntimeClassUpdate } from './runtime-class-validation.js';

function rc(fields: Partial<RuntimeClass>): RuntimeClass {
  return { apiVersion: 'node/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, ...fields };
}
const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('RuntimeClass rules', () => {
  const cases: { name: string; obj: RuntimeClass; want: string[] }[] = [
    { name: 'a plain handler', obj: rc({ handler: 'runsc' }), want: [] },
    {
      name: 'a handler that is not a DNS label',
      obj: rc({ handler: 'Run.SC' }),
      want: [
        "handler: Invalid value: \"Run.SC\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'a missing handler',
      obj: rc({}),
      want: [
        "handler: Invalid value: \"\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'negative overhead',
      obj: rc({ handler: 'a', overhead: { podFixed: { cpu: '-1' } } }),
      want: ['overhead.podFixed[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    },
    {
      name: 'bad and duplicate tolerations',
      obj: rc({
        handler: 'a',
        scheduling: {
          nodeSelector: { 'a/b/c': 'x' },
          tolerations: [
            { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
            { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
            { operator: 'Equal' },
            { key: 'k', operator: 'Maybe', effect: 'Sometimes' },
          ],
        },
      }),
      want: [
        "scheduling.nodeSelector: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        'scheduling.tolerations[1]: Duplicate value: {"key":"k","operator":"Equal","value":"v","effect":"NoSchedule"}',
        'scheduling.tolerations[2].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'scheduling.tolerations[3].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
        'scheduling.tolerations[3].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(messages(validateRuntimeClass(c.obj)), c.want));

  it('keeps the handler immutable', () => {
    assert.deepEqual(messages(validateRuntimeClassUpdate(rc({ handler: 'b' }), rc({ handler: 'a' }))), [
      'handler: Invalid value: "b": field is immutable',
    ]);
    assert.deepEqual(validateRuntimeClassUpdate(rc({ handler: 'a' }), rc({ handler: 'a' })), []);
  });

  it('has kube columns', () => {
    const cols = runtimeClassTableColumns({});
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'Handler', 'Age'],
    );
    assert.deepEqual(cols.cells(rc({ handler: 'runsc' }), new Date()), ['gvisor', 'runsc', '<unknown>']);
  });
});

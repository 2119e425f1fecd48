import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import { reviewSelectorAttributes, selectorEvaluationError, validateReviewSelectors } from './review-selectors.js';

const PATH = 'spec.resourceAttributes';
const messages = (ra: Record<string, unknown>) => validateReviewSelectors(ra, PATH).map(formatFieldError);

describe('access review selectors: validation', () => {
  const cases: [name: string, ra: Record<string, unknown>, want: string[]][] = [
    ['no selectors', { verb: 'list' }, []],
    ['a raw field selector', { fieldSelector: { rawSelector: 'a=b' } }, []],
    ['label requirements', { labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['x'] }] } }, []],
    [
      'an operator the server does not know (a newer client)',
      {
        fieldSelector: { requirements: [{ key: 'k', operator: 'Matches', values: ['x'] }] },
        labelSelector: { requirements: [{ key: 'k', operator: 'Gt', values: ['1'] }] },
      },
      [],
    ],
    [
      'both forms of a field selector',
      { fieldSelector: { rawSelector: 'foo', requirements: [{ key: 'k', operator: 'Exists' }] } },
      [
        'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
      ],
    ],
    [
      'neither form of a field selector',
      { fieldSelector: {} },
      [
        'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      ],
    ],
    [
      'a field requirement without key or values',
      { fieldSelector: { requirements: [{ key: '', operator: 'In', values: [] }] } },
      [
        'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
        "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'values with Exists',
      { fieldSelector: { requirements: [{ key: 'k', operator: 'DoesNotExist', values: ['v'] }] } },
      [
        "spec.resourceAttributes.fieldSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      'neither form of a label selector',
      { labelSelector: {} },
      [
        'spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
      ],
    ],
    [
      'a label key that is not a label name, and NotIn without values',
      { labelSelector: { requirements: [{ key: '()foo', operator: 'NotIn' }] } },
      [
        "spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        `spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "()foo": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'an empty label key',
      { labelSelector: { requirements: [{ key: '', operator: 'Exists' }] } },
      ['spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must be non-empty'],
    ],
  ];
  for (const [name, ra, want] of cases) {
    it(name, () => {
      const got = messages(ra);
      // kube reports the same first errors; later ones (a second message for one key) may follow.
      assert.deepEqual(got.slice(0, want.length), want);
      if (want.length === 0) assert.deepEqual(got, []);
    });
  }
});

describe('access review selectors: attributes and evaluation errors', () => {
  const cases: [
    name: string,
    ra: Record<string, unknown>,
    want: { field?: unknown; fieldError?: string; label?: unknown; labelError?: string; evaluationError: string },
  ][] = [
    ['none', {}, { field: undefined, label: undefined, evaluationError: '' }],
    [
      'raw selectors are parsed as a query would be',
      { fieldSelector: { rawSelector: 'spec.x==y' }, labelSelector: { rawSelector: 'app in (b,a)' } },
      {
        field: [{ field: 'spec.x', operator: '=', value: 'y' }],
        label: [{ key: 'app', operator: 'in', values: ['a', 'b'] }],
        evaluationError: '',
      },
    ],
    [
      'a raw selector that does not parse is ignored',
      { fieldSelector: { rawSelector: 'nope' } },
      {
        field: undefined,
        fieldError: "invalid selector: 'nope'; can't understand 'nope'",
        evaluationError: 'spec.resourceAttributes.fieldSelector ignored due to parse error',
      },
    ],
    [
      'field requirements: In and NotIn become = and !=, the rest is dropped with an error',
      {
        fieldSelector: {
          requirements: [
            { key: 'a', operator: 'In', values: ['1'] },
            { key: 'b', operator: 'NotIn', values: ['2'] },
            { key: 'c', operator: 'Exists' },
            { key: 'd', operator: 'In', values: ['3', '4'] },
          ],
        },
      },
      {
        field: [
          { field: 'a', operator: '=', value: '1' },
          { field: 'b', operator: '!=', value: '2' },
        ],
        fieldError: '[fieldSelectors do not yet support Exists, fieldSelectors do not yet support multiple values]',
        evaluationError: 'spec.resourceAttributes.fieldSelector partially ignored due to parse error',
      },
    ],
    [
      'label requirements: an unknown operator is dropped with an error',
      {
        labelSelector: {
          requirements: [
            { key: 'app', operator: 'Exists' },
            { key: 'x', operator: 'Gt', values: ['1'] },
          ],
        },
        fieldSelector: { requirements: [{ key: 'f', operator: 'Bogus', values: ['v'] }] },
      },
      {
        label: [{ key: 'app', operator: 'exists', values: [] }],
        labelError: '"Gt" is not a valid label selector operator',
        field: undefined,
        fieldError: '"Bogus" is not a valid field selector operator',
        evaluationError:
          'spec.resourceAttributes.fieldSelector ignored due to parse error; spec.resourceAttributes.labelSelector partially ignored due to parse error',
      },
    ],
  ];
  for (const [name, ra, want] of cases) {
    it(name, () => {
      const a = reviewSelectorAttributes(ra);
      const got = {
        field: a.fieldSelectorRequirements,
        fieldError: a.fieldSelectorParsingError,
        label: a.labelSelectorRequirements,
        labelError: a.labelSelectorParsingError,
        evaluationError: selectorEvaluationError(a),
      };
      for (const k of Object.keys(want) as (keyof typeof want)[]) assert.deepEqual(got[k], want[k], k);
    });
  }
});

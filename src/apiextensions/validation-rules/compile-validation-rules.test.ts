import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, formatFieldError } from '../../apis/meta/field-error.js';
import type { Schema, SchemaValidationRule } from '../../apis/schema/schema.js';
import { costErrorMessage } from '../../cel/cost/cost-budget.js';
import { estimateCost } from '../../cel/cost/cost-estimator.js';
import { schemaSizeBound } from '../../cel/cost/size-bounds.js';
import { crdValidationDeclarations } from '../../cel/declarations.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { compile } from '../../cel/program.js';
import { celVersion } from '../../cel/version.js';
import { compileValidationRules, preexistingExpressions } from './index.js';

const cel = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
const ROOT = 'spec.validation.openAPIV3Schema';
const SPEC = `${ROOT}.properties[spec]`;
const HINT =
  '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

/** A resource whose `spec` carries `rules` and the properties given. */
function specWith(rules: SchemaValidationRule[], properties: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { replicas: { type: 'integer' }, name: { type: 'string' }, ...properties },
        'x-orch-validations': rules,
      },
    },
  };
}

function errorsOf(schema: Schema, opts: Parameters<typeof compileValidationRules>[1] = {}): string[] {
  return compileValidationRules(schema, { cel, schemaPath: ROOT, ...opts }).errors.map(formatFieldError);
}

const goRule = (rule: string, extra = ''): string =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${extra || '""'}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

describe('compileValidationRules: definition-time errors', () => {
  const cases: [name: string, rules: SchemaValidationRule[], want: string[]][] = [
    ['a valid rule', [{ rule: 'self.replicas >= 0' }], []],
    [
      'a compile error',
      [{ rule: 'self.nope > 1' }],
      [
        `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.nope > 1')}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 1\n | ....^`,
      ],
    ],
    [
      'a result that is not a bool',
      [{ rule: 'self.replicas' }],
      [
        `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.replicas')}: cel expression must evaluate to a bool`,
      ],
    ],
    [
      'a messageExpression that is not a string',
      [{ rule: 'self.replicas > 0', messageExpression: 'self.replicas' }],
      [
        `${SPEC}.x-kubernetes-validations[0].messageExpression: Invalid value: ${goRule('self.replicas > 0', '"self.replicas"')}: messageExpression must evaluate to a string`,
      ],
    ],
    [
      'an empty rule',
      [{ rule: '  ' }],
      [`${SPEC}.x-kubernetes-validations[0].rule: Required value: rule is not specified`],
    ],
    [
      'a blank message',
      [{ rule: 'true', message: ' ' }],
      [`${SPEC}.x-kubernetes-validations[0].message: Invalid value: " ": message must be non-empty if specified`],
    ],
    [
      'a message on two lines',
      [{ rule: 'true', message: 'a\nb' }],
      [`${SPEC}.x-kubernetes-validations[0].message: Invalid value: "a\\nb": message must not contain line breaks`],
    ],
    [
      'a rule on two lines without message',
      [{ rule: 'true &&\ntrue' }],
      [
        `${SPEC}.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`,
      ],
    ],
    ['a rule on two lines with a message', [{ rule: 'true &&\ntrue', message: 'm' }], []],
    [
      'a blank messageExpression',
      [{ rule: 'true', messageExpression: ' ' }],
      [
        `${SPEC}.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified`,
      ],
    ],
    [
      'an unknown reason',
      [{ rule: 'true', reason: 'FieldValueTooLong' }],
      [
        `${SPEC}.x-kubernetes-validations[0].reason: Unsupported value: "FieldValueTooLong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      ],
    ],
    [
      'a fieldPath naming no field',
      [{ rule: 'true', fieldPath: '.nope' }],
      [`${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`],
    ],
    [
      'a blank fieldPath',
      [{ rule: 'true', fieldPath: ' ' }],
      [
        `${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`,
        `${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: " ": fieldPath must be a valid path`,
      ],
    ],
    [
      'a fieldPath on two lines',
      [{ rule: 'true', fieldPath: '.name\n' }],
      [
        `${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: ".name\\n": fieldPath must not contain line breaks`,
        `${SPEC}.x-kubernetes-validations[0].fieldPath: Invalid value: ".name\\n": fieldPath must be a valid path`,
      ],
    ],
    ['a valid fieldPath', [{ rule: 'true', fieldPath: ".labels['app']" }], []],
    [
      'optionalOldSelf on a rule without oldSelf',
      [{ rule: 'self.replicas > 0', optionalOldSelf: false }],
      [
        `${SPEC}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule`,
      ],
    ],
    ['optionalOldSelf on a transition rule', [{ rule: 'oldSelf.hasValue()', optionalOldSelf: true }], []],
    [
      'a rule that is correct only with optional oldSelf',
      [{ rule: 'oldSelf.hasValue()' }],
      [
        `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('oldSelf.hasValue()')}: compilation failed: ERROR: <input>:1:17: found no matching overload for 'hasValue' applied to 'selfType.()'\n | oldSelf.hasValue()\n | ................^`,
      ],
    ],
  ];
  const labels: Schema = { type: 'object', additionalProperties: { type: 'string' } };
  for (const [name, rules, want] of cases) {
    it(name, () => assert.deepEqual(errorsOf(specWith(rules, { labels })), want));
  }

  it("reports a messageExpression that does not compile with the compiler's message", () => {
    const errs = errorsOf(specWith([{ rule: 'self.replicas > 0', messageExpression: "'x' +" }]));
    assert.equal(errs.length, 1);
    const prefix = `${SPEC}.x-kubernetes-validations[0].messageExpression: Invalid value: ${goRule('self.replicas > 0', `"'x' +"`)}: messageExpression compilation failed: ERROR: <input>:1:`;
    assert.ok(errs[0].startsWith(prefix), errs[0]);
    assert.ok(errs[0].endsWith("\n | 'x' +\n | .....^"), errs[0]);
  });

  it('shows set pointers of the rule as Go does, with a placeholder address', () => {
    const [err] = compileValidationRules(specWith([{ rule: 'self.x', reason: 'FieldValueForbidden' }]), { cel }).errors;
    assert.match(err.message, /Reason:\(\*apiextensions\.FieldValueErrorReason\)\(0xc000000000\)/);
    assert.equal(err.field, 'properties[spec].x-kubernetes-validations[0].rule');
  });

  it('skips compiling rules where the node or a node below has a rule error, and reports the rest', () => {
    const schema: Schema = {
      type: 'object',
      'x-orch-validations': [{ rule: 'self.nope' }],
      properties: {
        a: { type: 'string', 'x-orch-validations': [{ rule: '' }] },
        b: { type: 'string', 'x-orch-validations': [{ rule: 'self.x' }] },
      },
    };
    const errs = errorsOf(schema);
    assert.equal(errs.length, 2);
    assert.equal(
      errs[0],
      `${ROOT}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
    );
    assert.match(
      errs[1],
      /^spec\.validation\.openAPIV3Schema\.properties\[b\]\.x-kubernetes-validations\[0\]\.rule: .*type 'string' does not support field selection/,
    );
  });

  it('forbids oldSelf below lists whose items cannot be paired (set, atomic), naming the outermost list', () => {
    // An integer: comparing it costs nothing (kube sizes schema numbers 0), so no cost error
    // joins the ones this test is about even below unbounded lists.
    const transition = (): Schema => ({ type: 'integer', 'x-orch-validations': [{ rule: 'self == oldSelf' }] });
    const list = (listType: 'set' | 'atomic' | 'map' | undefined, items: Schema): Schema => ({
      type: 'array',
      ...(listType ? { 'x-orch-list-type': listType } : {}),
      ...(listType === 'map' ? { 'x-orch-list-map-keys': ['k'] } : {}),
      items,
    });
    const mapItem = (v: Schema): Schema => ({
      type: 'object',
      required: ['k'],
      properties: { k: { type: 'string' }, v },
    });
    const cases: [string, Schema, string | undefined][] = [
      ['set', list('set', transition()), 'properties[l]'],
      ['atomic', list('atomic', transition()), 'properties[l]'],
      ['unset', list(undefined, transition()), 'properties[l]'],
      ['map', list('map', mapItem(transition())), undefined],
      [
        'map in set',
        list('set', { type: 'object', properties: { m: list('map', mapItem(transition())) } }),
        'properties[l]',
      ],
      ['map values', { type: 'object', additionalProperties: transition() }, undefined],
    ];
    for (const [name, l, within] of cases) {
      const errs = errorsOf({ type: 'object', properties: { l } });
      if (within === undefined) assert.deepEqual(errs, [], name);
      else {
        assert.equal(errs.length, 1, name);
        assert.match(
          errs[0],
          /: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within /,
        );
        assert.ok(errs[0].endsWith(`within ${ROOT}.${within}`), `${name}: ${errs[0]}`);
      }
    }
  });

  it('reports a node CEL cannot type as an internal error, and at run time as an initialization error', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        free: { 'x-orch-preserve-unknown-fields': true, 'x-orch-validations': [{ rule: 'has(self.a)' }] },
      },
    };
    const { rules, errors } = compileValidationRules(schema, { cel, schemaPath: ROOT });
    assert.deepEqual(errors, [
      {
        type: 'InternalError',
        field: `${ROOT}.properties[free].x-kubernetes-validations`,
        message:
          'Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
      },
    ]);
    // A property CEL cannot see is left out of validation, as kube leaves it out; so is a list of such items.
    assert.equal(rules, undefined);
    const untypedItems: Schema = {
      type: 'object',
      'x-orch-validations': [{ rule: 'true' }],
      properties: {
        l: {
          type: 'array',
          items: { 'x-orch-preserve-unknown-fields': true, 'x-orch-validations': [{ rule: 'false' }] },
        },
      },
    };
    assert.deepEqual(compileValidationRules(untypedItems, { cel }).rules?.validate({ l: [{}] }, undefined), []);
    // At the root, the node's rules fail with kube's initialization error.
    const root = compileValidationRules(
      { 'x-orch-preserve-unknown-fields': true, 'x-orch-validations': [{ rule: 'true' }] },
      { cel },
    );
    assert.deepEqual(root.rules?.validate({ a: 1 }, undefined), [
      {
        type: 'FieldValueInvalid',
        field: '<nil>',
        message:
          'Invalid value: "": rule compiler initialization error: failed to convert to declType for CEL validation rules',
      },
    ]);
  });

  it('has no rules for a schema without rules', () => {
    const { rules, errors } = compileValidationRules(
      { type: 'object', properties: { a: { type: 'string' } } },
      { cel },
    );
    assert.equal(rules, undefined);
    assert.deepEqual(errors, []);
  });
});

describe('compileValidationRules: estimated cost', () => {
  const strings = (o: { maxItems?: number; maxLength?: number } = {}): Schema => ({
    type: 'array',
    ...(o.maxItems !== undefined ? { maxItems: o.maxItems } : {}),
    items: { type: 'string', ...(o.maxLength !== undefined ? { maxLength: o.maxLength } : {}) },
  });
  const quadratic = 'self.l.all(x, self.l.all(y, x == y))';

  it('rejects a rule over the per-expression limit, with kube factor and hint', () => {
    // As cel-go v0.22 and kube v1.32 estimate it: x == y costs ceil(0.1 × 400) = 40 (maxLength
    // 100 is 400 bytes); the inner all() 2 + 1 + 1000 × (3 + 1 + 1 + 40) = 45,003; the outer
    // 2 + 1 + 1000 × (3 + 45,003) = 45,006,003, 4.5 times the limit of 10,000,000.
    const errs = errorsOf(specWith([{ rule: quadratic }], { l: strings({ maxItems: 1000, maxLength: 100 }) }));
    assert.deepEqual(errs, [
      `${SPEC}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 4.5x ${HINT}`,
    ]);
  });

  it('accepts the same rule once the list is bounded tighter', () => {
    assert.deepEqual(errorsOf(specWith([{ rule: quadratic }], { l: strings({ maxItems: 100, maxLength: 100 }) })), []);
  });

  it('multiplies a rule below lists by their maxItems, or by what fits in a request when unbounded', () => {
    // contains: self 1 + ceil(0.1 × 400) × ceil(0.1 × 3) = 41 per item.
    const item: Schema = { type: 'string', maxLength: 100, 'x-orch-validations': [{ rule: "self.contains('abc')" }] };
    const perItem = estimateCost(
      compile("self.contains('abc')", cel.extend(crdValidationDeclarations(item)).newExpressions).ast,
      schemaSizeBound({ self: item }),
    ).cost;
    const list = (maxItems?: number): Schema => ({
      type: 'object',
      properties: { l: { type: 'array', ...(maxItems === undefined ? {} : { maxItems }), items: item } },
    });
    // Within the limit for 100 items and 100,000; over it for as many strings as fit in 3 MiB.
    assert.deepEqual(errorsOf(list(100)), []);
    assert.ok(perItem * 100_000 <= 10_000_000);
    assert.deepEqual(errorsOf(list(100_000)), []);
    // A string is at least `""`: 3 MiB hold 3 MiB / 3 of them (with a comma each).
    const cost = perItem * Math.floor((3 * 1024 * 1024) / 3);
    assert.ok(cost > 10_000_000 && cost < 100_000_000, `${cost}`);
    assert.deepEqual(errorsOf(list()), [
      `${ROOT}.properties[l].items.x-kubernetes-validations[0].rule: Forbidden: ${costErrorMessage('estimated rule cost', cost, 10_000_000)}`,
    ]);
  });

  it('reports a costly messageExpression separately', () => {
    const errs = errorsOf(
      specWith([{ rule: 'true', messageExpression: "self.l.map(x, self.l.map(y, x + y).join(',')).join(';')" }], {
        l: strings(),
      }),
    );
    assert.equal(errs.length, 3);
    assert.match(
      errs[0],
      /x-kubernetes-validations\[0\]\.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x/,
    );
    assert.equal(
      errs[1],
      `${SPEC}.x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    );
    assert.equal(
      errs[2],
      `${ROOT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
    );
  });

  it('rejects a schema whose rules together exceed the per-schema limit, naming the four costliest', () => {
    // Each rule is just under the per-expression limit (3 + 6 × 450 + 45 × 450² + 1 = 9,115,204);
    // twelve of them exceed the total.
    const l = strings({ maxItems: 450, maxLength: 100 });
    const rules = Array.from({ length: 12 }, (_, i) => ({ rule: `${quadratic} || ${i} == 0` }));
    const errs = errorsOf(specWith(rules, { l }));
    assert.equal(errs.length, 5, errs.join('\n'));
    for (const e of errs.slice(0, 4)) {
      assert.match(
        e,
        /x-kubernetes-validations\[\d+\]\.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema$/,
      );
    }
    assert.match(
      errs[4],
      new RegExp(
        `^${ROOT.replaceAll('.', '\\.')}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\\.\\d{6}x`,
      ),
    );
  });

  it('does not count the per-expression limit against an unchanged schema, but still the total', () => {
    const schema = specWith([{ rule: quadratic }], { l: strings({ maxItems: 1000, maxLength: 100 }) });
    assert.deepEqual(errorsOf(schema, { suppressPerExpressionCost: true }), []);
    const many = Array.from({ length: 80 }, (_, i) => ({ rule: `${quadratic} || ${i} == 0` }));
    const total = errorsOf(specWith(many, { l: strings({ maxItems: 1000, maxLength: 100 }) }), {
      suppressPerExpressionCost: true,
    });
    assert.equal(total.length, 5);
    // 80 × 45,006,004 against the per-schema limit of 100,000,000.
    assert.match(total[4], /estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 36\.0x/);
  });
});

describe('compileValidationRules: environments', () => {
  const old = new CelEnvironmentSet({ libraries: versionedCelLibraries(), compatibilityVersion: celVersion(1, 27) });
  const rule = "quantity('1Gi').isGreaterThan(quantity('1Mi'))";
  const schema = specWith([{ rule }]);

  it('compiles new rules with the compatibility version, stored and preexisting ones with every library', () => {
    const fresh = compileValidationRules(schema, { cel: old });
    assert.equal(fresh.errors.length, 1);
    assert.match(fresh.errors[0].message, /undeclared reference to 'quantity'/);
    // Served as stored, the same rule runs; served from a failed compilation, it reports the error.
    assert.deepEqual(
      compileValidationRules(schema, { cel: old, storedExpressions: true }).rules?.validate({ spec: {} }, undefined),
      [],
    );
    const failed: FieldError[] = fresh.rules?.validate({ spec: {} }, undefined) ?? [];
    assert.equal(failed.length, 1);
    assert.equal(failed[0].field, 'spec');
    assert.match(
      failed[0].message,
      /^Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:9: undeclared reference to 'quantity'/,
    );
    const update = compileValidationRules(schema, { cel: old, storedExpressions: preexistingExpressions([schema]) });
    assert.deepEqual(update.errors, []);
  });

  it('collects the expressions of every node of the old schemas', () => {
    const s: Schema = {
      type: 'object',
      'x-orch-validations': [{ rule: 'a', messageExpression: 'm' }],
      properties: {
        x: {
          type: 'array',
          items: { type: 'object', additionalProperties: { type: 'string', 'x-orch-validations': [{ rule: 'b' }] } },
        },
      },
    };
    const got = preexistingExpressions([s, specWith([{ rule: 'c' }])]);
    assert.deepEqual([...got.rules].sort(), ['a', 'b', 'c']);
    assert.deepEqual([...got.messageExpressions], ['m']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goIntegerDecodeError } from './go-integer-decode.js';
import { int32Field, int64Field, namedType } from './named.js';
import type { Schema } from './schema.js';

const meta = namedType('io.orch.test.v1.Meta', '', {
  type: 'object',
  properties: { generation: int64Field('') },
});
const port = namedType('io.orch.test.v1.Port', '', {
  type: 'object',
  properties: { number: int32Field(''), name: { type: 'string' } },
});
const spec = namedType('io.orch.test.v1.WidgetSpec', '', {
  type: 'object',
  properties: {
    replicas: int32Field(''),
    ports: { type: 'array', items: port },
    limits: { type: 'object', additionalProperties: int64Field('') },
    ratio: { type: 'number', format: 'double' },
    count: { type: 'integer' },
    target: { 'x-orch-int-or-string': true, type: 'integer' } as Schema,
    open: { type: 'object', 'x-orch-preserve-unknown-fields': true },
  },
});
const widget = namedType('io.orch.test.v1.Widget', '', {
  type: 'object',
  properties: { metadata: meta, spec, size: int64Field('') },
});

const cannot = (literal: string, field: string, type: string) =>
  `json: cannot unmarshal number ${literal} into Go struct field ${field} of type ${type}`;

describe('goIntegerDecodeError', () => {
  const cases: Array<{ name: string; value: unknown; expected?: string }> = [
    { name: 'small values', value: { metadata: { generation: 3 }, spec: { replicas: 1 }, size: -4 } },
    {
      name: 'the int64 limits and values past 2^53',
      value: {
        metadata: { generation: 2n ** 63n - 1n },
        size: -(2n ** 63n),
        spec: { limits: { a: 9007199254740993n } },
      },
    },
    {
      name: 'past int64, in a nested struct',
      value: { metadata: { generation: 2n ** 63n } },
      expected: cannot('9223372036854775808', 'Meta.metadata.generation', 'int64'),
    },
    {
      name: 'below int64, at the root',
      value: { size: -(2n ** 63n) - 1n },
      expected: cannot('-9223372036854775809', 'Widget.size', 'int64'),
    },
    {
      name: 'past int32',
      value: { spec: { replicas: 2147483648 } },
      expected: cannot('2147483648', 'WidgetSpec.spec.replicas', 'int32'),
    },
    {
      name: 'in a list item: no index in the path',
      value: { spec: { ports: [{ number: 80 }, { number: -2147483649 }] } },
      expected: cannot('-2147483649', 'Port.spec.ports.number', 'int32'),
    },
    {
      name: 'in a map value: no key in the path, the struct holding the map',
      value: { spec: { limits: { cpu: 1, mem: 2n ** 64n } } },
      expected: cannot('18446744073709551616', 'WidgetSpec.spec.limits', 'int64'),
    },
    {
      name: 'the first in document order',
      value: { size: 2n ** 70n, metadata: { generation: 2n ** 63n } },
      expected: cannot('1180591620717411303424', 'Widget.size', 'int64'),
    },
    {
      name: 'not for fractions, integers without a format, floats, int-or-string or untyped values',
      value: {
        spec: { replicas: 1.5, count: 2n ** 70n, ratio: 2n ** 70n, target: 2n ** 40n, open: { x: 2n ** 70n } },
        unknown: 2n ** 70n,
      },
    },
    { name: 'not for values of another type', value: { spec: { replicas: '2147483648', ports: 'x' }, metadata: [] } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(goIntegerDecodeError(widget, c.value), c.expected));
  }
});

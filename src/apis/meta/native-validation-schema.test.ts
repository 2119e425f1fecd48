import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAgainstSchema } from '../schema/validate.js';
import { nativeValidationSchema } from './native-validation-schema.js';

describe('nativeValidationSchema', () => {
  const published = {
    type: 'object' as const,
    required: ['spec'],
    properties: {
      spec: {
        type: 'object' as const,
        required: ['name'],
        properties: {
          name: { type: 'string' as const, enum: ['a', 'b'] },
          verbs: { type: 'array' as const, items: { type: 'string' as const }, 'x-orch-list-type': 'set' as const },
          count: { type: 'integer' as const, format: 'int32' },
        },
      },
    },
  };
  it('drops required, enum and duplicate checks, keeps types', () => {
    const schema = nativeValidationSchema(published);
    assert.deepEqual(validateAgainstSchema(schema, {}), []);
    assert.deepEqual(validateAgainstSchema(schema, { spec: { name: 'z', verbs: ['get', 'get'] } }), []);
    assert.equal(validateAgainstSchema(schema, { spec: { count: 'x' } })[0]?.type, 'FieldValueTypeInvalid');
    assert.equal(validateAgainstSchema(published, {}).length, 1, 'the published schema is unchanged');
  });
});

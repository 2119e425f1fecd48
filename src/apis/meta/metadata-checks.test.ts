import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { formatFieldError } from './field-error.js';
import { isQualifiedName, nameIsDNSSubdomain } from './name-validation.js';
import { validateFieldManager, validateLabels } from './object-meta-validation.js';
import { schemaStrategy } from './resource-strategy.js';

describe('isQualifiedName', () => {
  it('counts the name part in bytes', () => {
    assert.deepEqual(isQualifiedName('a'.repeat(63)), []);
    assert.deepEqual(isQualifiedName(`${'a'.repeat(62)}é`), [
      'name part must be no more than 63 characters',
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
    assert.deepEqual(isQualifiedName(`${'é'.repeat(21)}`).length, 1);
  });

  it('reports a name with two slashes once', () => {
    assert.deepEqual(isQualifiedName('a/b/c'), [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]);
  });

  it('checks the prefix, then the name', () => {
    assert.deepEqual(isQualifiedName('/x'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('example.com/'), [
      'name part must be non-empty',
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });
});

describe('validateLabels', () => {
  it('checks every key and value, and accepts no labels', () => {
    assert.deepEqual(validateLabels(undefined, 'l'), []);
    assert.deepEqual(validateLabels({ ok: 'v', k: 'x'.repeat(64) }, 'l').map(formatFieldError), [
      `l: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
    ]);
  });
});

describe('validateFieldManager', () => {
  it('accepts printable ASCII up to 128 bytes', () => {
    assert.deepEqual(validateFieldManager(' !~kubectl-client-side-apply', 'm'), []);
    assert.deepEqual(validateFieldManager('m'.repeat(128), 'm'), []);
  });

  it('reports control characters, DEL included, and length past 128 bytes', () => {
    assert.deepEqual(validateFieldManager('a\u007f', 'm').map(formatFieldError), [
      'm: Invalid value: "a\u007f": invalid character U+007F (at position 1)',
    ]);
    assert.deepEqual(validateFieldManager('m'.repeat(129), 'm').map(formatFieldError), [
      'm: Too long: may not be more than 128 bytes',
    ]);
    assert.deepEqual(validateFieldManager(`${'m'.repeat(127)}é`, 'm').map(formatFieldError), [
      'm: Too long: may not be more than 128 bytes',
    ]);
  });
});

describe('schemaStrategy validateCreate: the generic name check', () => {
  const schema: Schema = { type: 'object', properties: { metadata: { type: 'object' } } };
  const object = (name: string, labels?: Record<string, string>): ApiObject =>
    ({ apiVersion: 'v1', kind: 'Thing', metadata: { name, namespace: 'ns', generateName: 'g%', labels } }) as ApiObject;

  it('runs after the kind name rule, reporting what that rule let through', () => {
    const lenient = schemaStrategy({ schema, namespaced: true, nameValidator: () => [] });
    assert.deepEqual(lenient.validateCreate(object('a%b')).map(formatFieldError), [
      `metadata.generateName: Invalid value: "g%": may not contain '%'`,
      `metadata.name: Invalid value: "a%b": may not contain '%'`,
    ]);
    assert.deepEqual(lenient.validateCreate(object('..')).map(formatFieldError), [
      `metadata.generateName: Invalid value: "g%": may not contain '%'`,
      `metadata.name: Invalid value: "..": may not be '..'`,
    ]);
  });

  it('is the whole metadata check for kinds without a name rule', () => {
    const noRule = schemaStrategy({ schema, namespaced: true });
    assert.deepEqual(noRule.validateCreate(object('a', { 'bad key': 'v' })).map(formatFieldError), [
      `metadata.generateName: Invalid value: "g%": may not contain '%'`,
      `metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('reports nothing more when the kind name rule fails', () => {
    const strict = schemaStrategy({ schema, namespaced: true, nameValidator: nameIsDNSSubdomain });
    const errs = strict.validateCreate(object('a%b')).map(formatFieldError);
    assert.equal(errs.length, 2);
    assert.ok(errs.every((e) => e.includes('RFC 1123 subdomain')));
  });
});

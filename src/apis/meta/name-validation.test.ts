import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
} from './name-validation.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

type Case = [input: string, want: string[]];

function table(name: string, fn: (v: string) => readonly string[], cases: Case[]) {
  describe(name, () => {
    for (const [input, want] of cases) {
      it(JSON.stringify(input.length > 40 ? `${input.slice(0, 20)}…(${input.length})` : input), () => {
        assert.deepEqual(fn(input), want);
      });
    }
  });
}

table('isDNS1123Subdomain', isDNS1123Subdomain, [
  ['example.com', []],
  ['a', []],
  ['1-2.b-c', []],
  ['Example.com', [SUBDOMAIN_MSG]],
  ['-a', [SUBDOMAIN_MSG]],
  ['a..b', [SUBDOMAIN_MSG]],
  ['', [SUBDOMAIN_MSG]],
  ['a'.repeat(253), []],
  ['a'.repeat(254), ['must be no more than 253 characters']],
]);

table('isDNS1123Label', isDNS1123Label, [
  ['my-name', []],
  ['a.b', ['must not contain dots']],
  ['My', [LABEL_MSG]],
  ['a-', [LABEL_MSG]],
  ['a'.repeat(64), ['must be no more than 63 characters']],
]);

table('isQualifiedName', isQualifiedName, [
  ['MyName', []],
  ['example.com/my.Name_1', []],
  ['/name', ['prefix part must be non-empty']],
  ['Example.com/name', [`prefix part ${SUBDOMAIN_MSG}`]],
  ['example.com/', ['name part must be non-empty', QUALIFIED_NAME_PART_MSG]],
  ['-x', [QUALIFIED_NAME_PART_MSG]],
  ['a'.repeat(64), ['name part must be no more than 63 characters']],
  [
    'a/b/c',
    [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  ],
]);

table('isValidLabelValue', isValidLabelValue, [
  ['', []],
  ['v1.2_3-x', []],
  ['-bad', [LABEL_VALUE_MSG]],
  ['a'.repeat(64), ['must be no more than 63 characters']],
]);

table('isConfigMapKey', isConfigMapKey, [
  ['key.name', []],
  ['.hidden', []],
  ['a/b', [CONFIG_KEY_MSG]],
  ['.', ["must not be '.'"]],
  ['..', ["must not be '..'"]],
  ['..data', ["must not start with '..'"]],
  ['', [CONFIG_KEY_MSG]],
]);

describe('name validators', () => {
  it('masks a trailing dash of a generateName', () => {
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSLabel('ns-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('web-', false), [SUBDOMAIN_MSG]);
  });
  it('path segment names', () => {
    assert.deepEqual(nameIsPathSegment('Any_Name:1', false), []);
    assert.deepEqual(nameIsPathSegment('.', false), ["may not be '.'"]);
    assert.deepEqual(nameIsPathSegment('..', false), ["may not be '..'"]);
    assert.deepEqual(nameIsPathSegment('a/b%c', false), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(nameIsPathSegment('..', true), []);
  });
});

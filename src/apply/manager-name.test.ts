import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../apis/meta/field-error.js';
import {
  managerFromUserAgent,
  managerOrUserAgent,
  validateFieldManager,
  validatePatchFieldManager,
} from './manager-name.js';

describe('managerFromUserAgent', () => {
  const cases: [string | undefined, string][] = [
    ['kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9', 'kubectl'],
    ['kubectl-client-side-apply/v1.32.0', 'kubectl-client-side-apply'],
    ['Go-http-client/2.0', 'Go-http-client'],
    ['no slash at all', 'no slash at all'],
    ['tab\tand\u0001bell/x', 'tabandbell'],
    ['', ''],
    [undefined, ''],
    ['é'.repeat(70), 'é'.repeat(64)],
    ['a'.repeat(200), 'a'.repeat(128)],
  ];
  for (const [ua, expected] of cases) {
    it(JSON.stringify(ua)?.slice(0, 40) ?? 'undefined', () => assert.equal(managerFromUserAgent(ua), expected));
  }

  it('prefers an explicit fieldManager', () => {
    assert.equal(managerOrUserAgent('mine', 'kubectl/v1'), 'mine');
    assert.equal(managerOrUserAgent('', 'kubectl/v1'), 'kubectl');
  });
});

describe('validateFieldManager', () => {
  it('accepts printable names up to 128 bytes', () => {
    assert.deepEqual(validateFieldManager('kubectl'), []);
    assert.deepEqual(validateFieldManager('a'.repeat(128)), []);
    assert.deepEqual(validateFieldManager('with space & ünïcode'), []);
  });

  it('rejects longer names and unprintable characters, as kube words it', () => {
    assert.deepEqual(validateFieldManager('a'.repeat(129)).map(formatFieldError), [
      'fieldManager: Too long: may not be more than 128 bytes',
    ]);
    assert.deepEqual(validateFieldManager('a\tb').map(formatFieldError), [
      'fieldManager: Invalid value: "a\\tb": invalid character U+0009',
    ]);
  });

  it('requires a manager for apply and forbids force elsewhere', () => {
    assert.deepEqual(
      validatePatchFieldManager({ isApply: true, fieldManager: undefined, force: undefined }).map(formatFieldError),
      ['fieldManager: Required value: is required for apply patch'],
    );
    assert.deepEqual(
      validatePatchFieldManager({ isApply: false, fieldManager: 'm', force: true }).map(formatFieldError),
      ['force: Forbidden: may not be specified for non-apply patch'],
    );
    assert.deepEqual(validatePatchFieldManager({ isApply: true, fieldManager: 'm', force: false }), []);
  });
});

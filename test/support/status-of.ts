import assert from 'node:assert/strict';
import { StatusError } from '../../src/apis/meta/status.js';

/** The StatusError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function statusOf(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a StatusError');
}

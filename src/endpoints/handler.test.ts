import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestInfo } from '../apis/request/request-info.js';
import { type ApiRequest, readContext, requestContext } from './handler.js';
import { parseRequestInfo } from './request/request-info.js';
import { RequestWarnings } from './request/request-warnings.js';

/** A request past the filters whose signal counts how often it is read. */
function passedRequest(): { req: ApiRequest; reads: () => number; signal: AbortSignal } {
  const signal = new AbortController().signal;
  let reads = 0;
  const info: RequestInfo = parseRequestInfo('GET', '/api/v1/namespaces/ns/configmaps/c', new URLSearchParams());
  const req = {
    info,
    user: { name: 'alice', groups: ['system:authenticated'] },
    auditId: 'audit-1',
    warnings: new RequestWarnings(),
    get signal() {
      reads++;
      return signal;
    },
  } as unknown as ApiRequest;
  return { req, reads: () => reads, signal };
}

/** `ctx` carries what the request carries (namespace `ns`), and reads its signal only when asked. */
function assertCarries(ctx: ReturnType<typeof readContext>, passed: ReturnType<typeof passedRequest>): void {
  const { req, reads, signal } = passed;
  assert.equal(ctx.info, req.info);
  assert.equal(ctx.namespace, 'ns');
  assert.equal(ctx.user, req.user);
  assert.equal(ctx.auditId, 'audit-1');
  assert.equal(ctx.warnings, req.warnings);
  assert.equal(reads(), 0);
  assert.equal(ctx.signal, signal);
  assert.equal(reads(), 1);
}

describe('requestContext', () => {
  it('carries the request, and reads its signal only when asked', () => {
    const passed = passedRequest();
    const ctx = requestContext(passed.req, 'ns');
    assert.deepEqual(Object.keys(ctx), ['info', 'namespace', 'user', 'auditId', 'warnings', 'signal']);
    assertCarries(ctx, passed);
  });

  it('keeps the signal in copies made by spreading', () => {
    const { req, signal } = passedRequest();
    const copy = { ...requestContext(req, 'ns'), namespace: 'other' };
    assert.equal(copy.signal, signal);
    assert.equal(copy.namespace, 'other');
    assert.equal(copy.auditId, 'audit-1');
  });

  it('needs the request-info and authentication filters', () => {
    const { req } = passedRequest();
    assert.throws(() => requestContext({ ...req, user: undefined } as ApiRequest, 'ns'), /authentication filters/);
  });
});

describe('readContext', () => {
  it('carries the request, and reads its signal only when asked, through its prototype', () => {
    const passed = passedRequest();
    const ctx = readContext(passed.req, 'ns');
    assert.deepEqual(Object.keys(ctx), ['info', 'namespace', 'user', 'auditId', 'warnings']);
    assertCarries(ctx, passed);
  });

  it('needs the request-info and authentication filters', () => {
    const { req } = passedRequest();
    assert.throws(() => readContext({ ...req, info: undefined } as ApiRequest, 'ns'), /request-info/);
  });
});

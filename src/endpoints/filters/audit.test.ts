import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { AuditPolicyEvaluator } from '../../audit/index.js';
import { systemClock } from '../../util/clock.js';
import type { ApiResponse, Handler } from '../handler.js';
import { parseRequestInfo } from '../request/request-info.js';
import { apiRequest } from '../testing/api-request.js';
import { audit } from './audit.js';

describe('audit filter', () => {
  const throwers: [name: string, inner: Handler][] = [
    [
      'rejects',
      async () => {
        throw new Error('boom');
      },
    ],
    [
      'throws at once',
      () => {
        throw new Error('boom');
      },
    ],
  ];
  for (const [how, inner] of throwers) {
    it(`records the Panic stage when a later layer ${how}, and lets the error through`, async () => {
      const events: { stage: string; responseStatus?: { code: number; reason?: string } }[] = [];
      const filter = audit({
        evaluator: new AuditPolicyEvaluator({ rules: [{ level: 'Metadata' }] }),
        backend: { write: (e) => events.push(e as never), close() {} },
        domain: ORCH_DOMAIN,
        clock: systemClock,
      });
      const req = apiRequest({ url: '/api/v1/namespaces/default/configmaps/x' });
      req.info = parseRequestInfo(req.method, req.path, req.query);
      req.user = { name: 'alice', groups: ['system:authenticated'] };
      req.auditId = 'panic';
      await assert.rejects(async () => filter(inner)(req), /boom/);
      assert.deepEqual(
        events.map((e) => e.stage),
        ['RequestReceived', 'Panic'],
      );
      assert.equal(events[1].responseStatus?.code, 500);
      assert.equal(events[1].responseStatus?.reason, 'InternalError');
    });
  }

  it('passes an answer given at once through at once, recording its stages', () => {
    const events: string[] = [];
    const filter = audit({
      evaluator: new AuditPolicyEvaluator({ rules: [{ level: 'Metadata' }] }),
      backend: { write: (e) => events.push((e as { stage: string }).stage), close() {} },
      domain: ORCH_DOMAIN,
      clock: systemClock,
    });
    const req = apiRequest({ url: '/api/v1/namespaces/default/configmaps/x' });
    req.info = parseRequestInfo(req.method, req.path, req.query);
    req.user = { name: 'alice', groups: ['system:authenticated'] };
    const ok: ApiResponse = { kind: 'body', status: 200, headers: {}, body: '{}' };
    assert.equal(filter(() => ok)(req), ok);
    assert.deepEqual(events, ['RequestReceived', 'ResponseComplete']);
  });
});

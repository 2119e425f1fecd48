import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { AuditPolicyEvaluator } from '../../audit/index.js';
import { systemClock } from '../../util/clock.js';
import { parseRequestInfo } from '../request/request-info.js';
import { apiRequest } from '../testing/api-request.js';
import { audit } from './audit.js';

describe('audit filter', () => {
  it('records the Panic stage when a later layer throws, and lets the error through', async () => {
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
    const handler = filter(async () => {
      throw new Error('boom');
    });
    await assert.rejects(async () => handler(req), /boom/);
    assert.deepEqual(
      events.map((e) => e.stage),
      ['RequestReceived', 'Panic'],
    );
    assert.equal(events[1].responseStatus?.code, 500);
    assert.equal(events[1].responseStatus?.reason, 'InternalError');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiResponse, BodyResponse, Handler } from '../../endpoints/handler.js';
import { apiRequest } from '../../endpoints/testing/api-request.js';
import type { Logger } from '../../util/logger.js';
import { panicRecovery } from './panic-recovery.js';

const OK: ApiResponse = { kind: 'body', status: 200, headers: {}, body: 'ok' };

function recordingLogger(): { logger: Logger; errors: string[] } {
  const errors: string[] = [];
  const ignore = () => {};
  return { logger: { error: (msg) => errors.push(msg), warn: ignore, info: ignore }, errors };
}

describe('panicRecovery', () => {
  const cases: { name: string; inner: Handler; sync: boolean; want: number }[] = [
    { name: 'an answer given at once passes through as it is', inner: () => OK, sync: true, want: 200 },
    { name: 'a pending answer passes through', inner: async () => OK, sync: false, want: 200 },
    {
      name: 'a synchronous throw becomes a 500 Status at once',
      inner: () => {
        throw new Error('boom');
      },
      sync: true,
      want: 500,
    },
    {
      name: 'a rejection becomes a 500 Status',
      inner: async () => {
        throw new Error('boom');
      },
      sync: false,
      want: 500,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { logger, errors } = recordingLogger();
      const answer = panicRecovery(logger)(c.inner)(apiRequest({ url: '/api/v1/namespaces/default/configmaps/x' }));
      assert.equal(answer instanceof Promise, !c.sync);
      const res = (await answer) as BodyResponse;
      assert.equal(res.status, c.want);
      if (c.want === 200) {
        assert.equal(res, OK);
        assert.deepEqual(errors, []);
      } else {
        assert.equal(JSON.parse(String(res.body)).reason, 'InternalError');
        assert.deepEqual(errors, ['request handler failed']);
      }
    });
  }
});

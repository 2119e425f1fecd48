import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BenchArgs, failureLine, parseBenchArgs } from './cli.js';

describe('parseBenchArgs', () => {
  const cases: { args: string[]; want: BenchArgs | 'usage' }[] = [
    { args: ['api'], want: { suite: 'api', options: { quick: false } } },
    { args: ['api', '--quick'], want: { suite: 'api', options: { quick: true } } },
    { args: ['--quick', 'storage'], want: { suite: 'storage', options: { quick: true } } },
    { args: [], want: 'usage' },
    { args: ['--quick'], want: 'usage' },
    { args: ['no-such-suite'], want: 'usage' },
    { args: ['toString'], want: 'usage' },
    { args: ['api', 'cel'], want: 'usage' },
    { args: ['api', '--fast'], want: 'usage' },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.args), () => {
      const got = parseBenchArgs(c.args);
      if (c.want === 'usage') {
        assert.ok('usage' in got);
        assert.match(got.usage, /usage: npm run bench -- <storage\|.*> \[--quick\]/);
      } else assert.deepEqual(got, c.want);
    });
  }
});

describe('failureLine', () => {
  it('is one line naming the suite, whatever the message holds', () => {
    const line = failureLine('api', new Error('server exited 1:\nline one\n  line two\n'));
    assert.equal(line, 'bench api: server exited 1: ⏎ line one ⏎ line two');
  });
  it('takes a thrown non-Error as its message', () => {
    assert.equal(failureLine('cel', 'boom'), 'bench cel: boom');
  });
  it('cuts a long message', () => {
    const line = failureLine('api', new Error('x'.repeat(50)), 10);
    assert.equal(line, `bench api: ${'x'.repeat(10)}… (BENCH_DEBUG=1 prints all)`);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printTable, type Row } from './measure.js';

describe('printTable', () => {
  const cases: { name: string; rows: Row[]; blank?: string[]; printed?: RegExp }[] = [
    {
      name: 'a row with a baseline',
      rows: [{ metric: 'reads', ours: 10, baseline: 20, unit: 'reads/s' }],
      printed: /\| reads \| 10\.00 \| 20\.00 \| reads\/s \| 0\.50 \|/,
    },
    {
      name: 'a row that says why it has no baseline',
      rows: [{ metric: 'watch p50', ours: 1.5, noBaseline: 'no watch', unit: 'ms' }],
      printed: /\| watch p50 \| 1\.50 \| — \| ms \(no baseline: no watch\) \| — \|/,
    },
    {
      name: 'a NaN baseline',
      rows: [{ metric: 'watch p50', ours: 1, baseline: Number.NaN, unit: 'ms' }],
      blank: ['watch p50'],
    },
    {
      name: 'a NaN figure without a baseline',
      rows: [
        { metric: 'ok', ours: 1, baseline: 1, unit: 'ms' },
        { metric: 'watch p99', ours: Number.NaN, noBaseline: 'no watch', unit: 'ms' },
      ],
      blank: ['watch p99'],
    },
    {
      name: 'a zero baseline (no ratio)',
      rows: [{ metric: 'gets', ours: 5, baseline: 0, unit: 'req/s' }],
      blank: ['gets'],
    },
  ];
  for (const c of cases) {
    it(c.name, (t) => {
      const log = t.mock.method(console, 'log', () => {});
      if (c.blank) {
        assert.throws(
          () => printTable('t', c.rows),
          (err: Error) => c.blank!.every((m) => err.message.includes(JSON.stringify(m))),
        );
        assert.equal(log.mock.callCount(), 0);
      } else {
        printTable('t', c.rows);
        const out = log.mock.calls.map((call) => String(call.arguments[0])).join('\n');
        assert.match(out, c.printed!);
      }
    });
  }
});

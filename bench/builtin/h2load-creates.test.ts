import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h2loadRate } from './h2load-creates.js';

/** The lines of an h2load report the rate is read from. */
function report(o: { rate: string; succeeded: number; failed?: number; errored?: number; codes?: number[] }): string {
  const failed = o.failed ?? 0;
  const errored = o.errored ?? 0;
  const total = o.succeeded + failed + errored;
  const [c2, c3, c4, c5] = o.codes ?? [o.succeeded, 0, 0, 0];
  return [
    'Stopped all clients for thread #0',
    '',
    `finished in 7.01s, ${o.rate} req/s, 2.85MB/s`,
    `requests: ${total} total, ${total + 4} started, ${total} done, ${o.succeeded} succeeded, ${failed} failed, ${errored} errored, 0 timeout`,
    `status codes: ${c2} 2xx, ${c3} 3xx, ${c4} 4xx, ${c5} 5xx`,
    'traffic: 1.17MB (1228500) total, 610.13KB (624768) headers (space savings 0.00%), 409.93KB (419766) data',
  ].join('\n');
}

describe('h2loadRate', () => {
  it('reads the measured requests per second', () => {
    assert.equal(h2loadRate(report({ rate: '1701.20', succeeded: 8506 }), 'cm'), 1701.2);
  });

  it('refuses a run with failed or errored requests, or answers other than 2xx', () => {
    assert.throws(
      () => h2loadRate(report({ rate: '3250.00', succeeded: 0, failed: 3250, codes: [0, 0, 3250, 0] }), 'pod'),
      /h2load saw 3250 failed, 0 errored and 3250 non-2xx requests creating pod/,
    );
    assert.throws(() => h2loadRate(report({ rate: '90.00', succeeded: 450, errored: 3 }), 'pod'), /3 errored/);
    assert.throws(
      () => h2loadRate(report({ rate: '90.00', succeeded: 450, codes: [449, 0, 0, 1] }), 'pod'),
      /1 non-2xx requests/,
    );
  });

  it('refuses a run where nothing completed, or a report without figures', () => {
    assert.throws(() => h2loadRate(report({ rate: '0.00', succeeded: 0 }), 'cm'), /no cm create completed/);
    assert.throws(() => h2loadRate('connect: Connection refused', 'cm'), /h2load printed no figures for cm/);
  });
});

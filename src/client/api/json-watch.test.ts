import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeWatchLine, WatchDecodeError } from './json-watch.js';

describe('decodeWatchLine', () => {
  it('decodes events and fills apiVersion/kind of objects that lack them', () => {
    const fill = (o: { apiVersion?: string; kind?: string }) => ({ ...o, apiVersion: 'v1', kind: 'ConfigMap' });
    const ev = decodeWatchLine('{"type":"ADDED","object":{"metadata":{"name":"a"}}}', fill as never);
    assert.deepEqual(ev, { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } });
    const err = decodeWatchLine('{"type":"ERROR","object":{"kind":"Status","code":410}}', fill as never);
    assert.deepEqual(err.object, { kind: 'Status', code: 410 });
  });
  const bad: [string, string][] = [
    ['not JSON', '{"type":'],
    ['an unknown type', '{"type":"CHANGED","object":{}}'],
    ['no object', '{"type":"ADDED"}'],
  ];
  for (const [what, line] of bad) {
    it(`rejects ${what}`, () => assert.throws(() => decodeWatchLine(line), WatchDecodeError));
  }
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { SyncWatchSource, WatchEvent } from '../../registry/types.js';
import { pumpSyncWatch } from './watch-pump.js';

/** A source fed by the test: `emit` queues events and wakes the listener, as the watch cache does. */
class FedSource implements SyncWatchSource {
  private queue: WatchEvent[] = [];
  private ended = false;
  private failure: unknown;
  listener: (() => void) | undefined;
  polls = 0;

  poll(): readonly WatchEvent[] | undefined | null {
    this.polls++;
    if (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      return batch;
    }
    if (this.failure !== undefined) {
      const f = this.failure;
      this.failure = undefined;
      this.ended = true;
      throw f;
    }
    return this.ended ? undefined : null;
  }

  onReady(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  emit(...names: string[]): void {
    for (const name of names) this.queue.push(event(name));
    this.listener?.();
  }

  end(failure?: unknown): void {
    if (failure === undefined) this.ended = true;
    else this.failure = failure;
    this.listener?.();
  }
}

function event(name: string): WatchEvent {
  return { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } as ApiObject };
}

const encode = (ev: WatchEvent): string => `${ev.object.metadata.name}\n`;

describe('pumpSyncWatch', () => {
  const cases = [
    { name: 'one event per wake-up', emits: [['a'], ['b'], ['c']] },
    { name: 'batches of several events', emits: [['a', 'b'], ['c'], ['d', 'e', 'f']] },
  ];
  for (const c of cases) {
    it(`writes every event synchronously within its wake-up, in order: ${c.name}`, async () => {
      const source = new FedSource();
      const written: string[] = [];
      const done = pumpSyncWatch(source, (chunk) => void written.push(String(chunk)), encode);
      const expected: string[] = [];
      for (const names of c.emits) {
        source.emit(...names);
        expected.push(...names.map((n) => `${n}\n`));
        assert.deepEqual(written, expected);
      }
      source.end();
      await done;
      assert.equal(source.listener, undefined, 'the wake-up is removed at the end');
    });
  }

  it('pauses while the transport is full and resumes with the rest of the batch after it drains', async () => {
    const source = new FedSource();
    const written: string[] = [];
    let release: (() => void) | undefined;
    const write = (chunk: Buffer | string): Promise<void> | undefined => {
      written.push(String(chunk));
      if (written.length !== 2) return undefined;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const done = pumpSyncWatch(source, write, encode);
    source.emit('a', 'b', 'c');
    assert.deepEqual(written, ['a\n', 'b\n']);
    const pollsWhileFull = source.polls;
    source.emit('d');
    assert.deepEqual(written, ['a\n', 'b\n'], 'nothing written while full');
    assert.equal(source.polls, pollsWhileFull, 'the source is not polled while full');
    release?.();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(written, ['a\n', 'b\n', 'c\n', 'd\n']);
    source.end();
    await done;
  });

  it('rejects with the error the source throws, after the events before it', async () => {
    const source = new FedSource();
    const written: string[] = [];
    const done = pumpSyncWatch(source, (chunk) => void written.push(String(chunk)), encode);
    source.emit('a');
    source.end(new Error('watch failed'));
    await assert.rejects(done, /watch failed/);
    assert.deepEqual(written, ['a\n']);
    assert.equal(source.listener, undefined);
  });

  it('rejects with an encoding error instead of throwing into the wake-up', async () => {
    const source = new FedSource();
    const done = pumpSyncWatch(
      source,
      () => undefined,
      () => {
        throw new Error('cannot encode');
      },
    );
    assert.doesNotThrow(() => source.emit('a'));
    await assert.rejects(done, /cannot encode/);
  });

  it('folds a wake-up that arrives during a write into the running pass', async () => {
    const source = new FedSource();
    const written: string[] = [];
    let nested = true;
    const write = (chunk: Buffer | string): undefined => {
      written.push(String(chunk));
      // A write that synchronously queues more (as a stream ending under a write would).
      if (nested) {
        nested = false;
        source.emit('b');
      }
      return undefined;
    };
    const done = pumpSyncWatch(source, write, encode);
    source.emit('a');
    assert.deepEqual(written, ['a\n', 'b\n']);
    source.end();
    await done;
  });
});

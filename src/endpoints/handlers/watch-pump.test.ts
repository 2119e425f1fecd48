import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { SyncWatchListener, SyncWatchSource, WatchEvent } from '../../registry/types.js';
import { pumpSyncWatch } from './watch-pump.js';

/**
 * A source fed by the test, as the watch cache feeds its watchers: `emit` offers each event while
 * nothing is queued (when `offers` is set), queues the rest and wakes the listener.
 */
class FedSource implements SyncWatchSource {
  private queue: WatchEvent[] = [];
  private ended = false;
  private failure: unknown;
  listener: SyncWatchListener | undefined;
  polls = 0;
  offered = 0;

  constructor(private readonly offers = false) {}

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

  onReady(listener: SyncWatchListener | undefined): void {
    this.listener = listener;
  }

  emit(...names: string[]): void {
    let queued = false;
    for (const name of names) {
      const ev = event(name);
      if (this.offers && this.queue.length === 0 && this.listener?.offer?.(ev)) {
        this.offered++;
        continue;
      }
      this.queue.push(ev);
      queued = true;
    }
    if (queued) this.listener?.wake();
  }

  end(failure?: unknown): void {
    if (failure === undefined) this.ended = true;
    else this.failure = failure;
    this.listener?.wake();
  }
}

function event(name: string): WatchEvent {
  return { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } as ApiObject };
}

const encode = (ev: WatchEvent): string => `${ev.object.metadata.name}\n`;

describe('pumpSyncWatch', () => {
  const cases = [
    { name: 'one event per wake-up', emits: [['a'], ['b'], ['c']], offers: false },
    { name: 'batches of several events', emits: [['a', 'b'], ['c'], ['d', 'e', 'f']], offers: false },
    { name: 'events offered one at a time', emits: [['a'], ['b'], ['c']], offers: true },
    { name: 'offered and batched events mixed', emits: [['a', 'b'], ['c'], ['d', 'e', 'f']], offers: true },
  ];
  for (const c of cases) {
    it(`writes every event synchronously when it is dispatched, in order: ${c.name}`, async () => {
      const source = new FedSource(c.offers);
      const written: string[] = [];
      const done = pumpSyncWatch(source, (chunk) => void written.push(String(chunk)), encode);
      let expected = '';
      for (const names of c.emits) {
        source.emit(...names);
        expected += names.map((n) => `${n}\n`).join('');
        assert.equal(written.join(''), expected);
      }
      if (c.offers) assert.ok(source.offered > 0, 'some events were taken by offer');
      source.end();
      await done;
      assert.equal(source.listener, undefined, 'the listener is removed at the end');
    });
  }

  it('writes the events of one batch as one chunk, and a large batch in chunks of about 4 KiB', async () => {
    const source = new FedSource();
    const written: Buffer[] = [];
    const frame = (ev: WatchEvent) => Buffer.from(`${String(ev.object.metadata.name).padEnd(999, '.')}\n`);
    const done = pumpSyncWatch(source, (chunk) => void written.push(Buffer.from(chunk)), frame);
    source.emit('a', 'b', 'c');
    assert.deepEqual(
      written.map((b) => b.length),
      [3000],
    );
    const names = Array.from({ length: 200 }, (_, i) => `n${i}`);
    source.emit(...names);
    // Frames of 1,000 bytes: a chunk ends with the frame that reaches 4 KiB.
    assert.deepEqual(
      written.slice(1).map((b) => b.length),
      Array.from({ length: 40 }, () => 5_000),
    );
    const lines = Buffer.concat(written).toString().split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((l) => l.replace(/\.+$/, '')),
      ['a', 'b', 'c', ...names],
    );
    source.end();
    await done;
  });

  for (const offers of [false, true]) {
    it(`pauses while the transport is full and resumes with the rest after it drains (offers: ${offers})`, async () => {
      const source = new FedSource(offers);
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
      source.emit('a');
      source.emit('b');
      assert.deepEqual(written, ['a\n', 'b\n']);
      const pollsWhileFull = source.polls;
      source.emit('c');
      source.emit('d');
      assert.deepEqual(written, ['a\n', 'b\n'], 'nothing written while full');
      assert.equal(source.polls, pollsWhileFull, 'the source is not polled while full');
      release?.();
      await new Promise((r) => setImmediate(r));
      // What waited is written as one chunk.
      assert.deepEqual(written, ['a\n', 'b\n', 'c\nd\n']);
      source.emit('e');
      assert.deepEqual(written, ['a\n', 'b\n', 'c\nd\n', 'e\n']);
      source.end();
      await done;
    });
  }

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
    const source = new FedSource(true);
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

  it('writes the events of a batch before one that fails to encode, then rejects with the error', async () => {
    const source = new FedSource();
    const written: string[] = [];
    const frame = (ev: WatchEvent): string => {
      if (ev.object.metadata.name === 'bad') throw new Error('cannot encode bad');
      return encode(ev);
    };
    const done = pumpSyncWatch(source, (chunk) => void written.push(String(chunk)), frame);
    source.emit('a', 'b', 'bad', 'c');
    await assert.rejects(done, /cannot encode bad/);
    assert.deepEqual(written, ['a\nb\n']);
  });

  for (const offers of [false, true]) {
    it(`folds a wake-up that arrives during a write into a pass after it (offers: ${offers})`, async () => {
      const source = new FedSource(offers);
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
  }
});

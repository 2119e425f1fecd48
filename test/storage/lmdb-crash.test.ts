import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openLmdbStore } from '../../src/storage/lmdb/lmdb-store.js';
import { assertLmdbInvariants } from '../../src/storage/lmdb/testing/lmdb-invariants.js';
import { bundledProgram } from '../support/program-bundle.js';

const WRITER = 'src/storage/lmdb/testing/crash-writer.ts';
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = 22;
/** The kill lands uniformly within this long after the writer reports it is ready. */
const MAX_KILL_DELAY_MS = 300;

interface Ack {
  readonly type: 'put' | 'del';
  readonly revision: number;
  readonly key: string;
  readonly value?: string;
}

/** Starts the writer and resolves with its complete output lines once it is SIGKILLed. */
async function runAndKill(dir: string, seed: number, killDelayMs: number): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, [...bundledProgram(WRITER), dir, String(seed)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const ready = await Promise.race([
      new Promise<'ready'>((resolve) => {
        const poll = setInterval(() => {
          if (stdout.startsWith('ready ')) {
            clearInterval(poll);
            resolve('ready');
          }
        }, 2);
        exited.then(() => clearInterval(poll));
      }),
      exited.then(() => 'exited' as const),
    ]);
    assert.equal(ready, 'ready', `writer exited before it was ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, killDelayMs));
  } finally {
    child.kill('SIGKILL');
  }
  const { signal } = await exited;
  assert.equal(signal, 'SIGKILL', `writer ended on its own: ${stderr}`);
  // A line cut by the kill has no newline yet and was never acknowledged in full.
  const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  return complete.split('\n').filter((line) => line.length > 0);
}

function parseAcks(lines: string[]): Ack[] {
  return lines
    .filter((line) => !line.startsWith('ready '))
    .map((line) => {
      const [type, revision, key, value] = line.split(' ');
      assert.ok(type === 'put' || type === 'del', `unexpected writer output: ${line}`);
      return { type, revision: Number(revision), key, value };
    });
}

describe('lmdb store crash safety', () => {
  it(`keeps every acknowledged write across ${ROUNDS} SIGKILLs at random moments`, { timeout: 60_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-lmdb-crash-'));
    try {
      const all: Ack[] = [];
      let revisionAfterLastReopen = 0;
      let totalAcks = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const lines = await runAndKill(dir, round + 1, Math.random() * MAX_KILL_DELAY_MS);
        const ready = Number(lines[0]?.split(' ')[1]);
        assert.equal(ready, revisionAfterLastReopen, `round ${round}: the writer reopened at the verified revision`);
        const acks = parseAcks(lines);
        totalAcks += acks.length;
        for (const ack of acks) {
          assert.ok(ack.revision > revisionAfterLastReopen, `round ${round}: revision ${ack.revision} was reused`);
        }

        const store = await openLmdbStore({ path: dir });
        try {
          const report = assertLmdbInvariants(store);
          const current = Number(await store.currentRevision());
          const maxAcked = Math.max(revisionAfterLastReopen, ...acks.map((a) => a.revision));
          assert.ok(current >= maxAcked, `round ${round}: current revision ${current} < acknowledged ${maxAcked}`);
          all.push(...acks);
          // Every acknowledged write is there: the key reads as written at that write's revision.
          for (const ack of all) {
            if (ack.revision <= report.compacted) continue;
            const kv = await store.get(ack.key, { revision: BigInt(ack.revision) });
            if (ack.type === 'del') {
              assert.equal(kv, undefined, `round ${round}: delete of ${ack.key} at ${ack.revision} lost`);
            } else {
              assert.ok(kv, `round ${round}: put of ${ack.key} at ${ack.revision} lost`);
              assert.equal(Buffer.from(kv.value).toString(), ack.value, `round ${round}: value of ${ack.key}`);
              assert.equal(kv.modRevision, BigInt(ack.revision));
            }
          }
          // And the newest acknowledged state of each key is still current or superseded, never older.
          const newest = new Map<string, Ack>();
          for (const ack of all) newest.set(ack.key, ack);
          for (const ack of newest.values()) {
            const kv = await store.get(ack.key);
            if (kv !== undefined) assert.ok(kv.modRevision >= BigInt(ack.revision), `${ack.key} went back in time`);
            else assert.ok(ack.type === 'del' || current > ack.revision, `${ack.key} vanished`);
          }
          revisionAfterLastReopen = current;
        } finally {
          await store.close();
        }
      }
      t.diagnostic(`${totalAcks} acknowledged writes verified, final revision ${revisionAfterLastReopen}`);
      assert.ok(totalAcks > ROUNDS, `the writer acknowledged only ${totalAcks} writes in ${ROUNDS} rounds`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

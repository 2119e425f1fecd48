import { connect, type TLSSocket } from 'node:tls';
import { median } from '../storage/measure.js';

/** One kind of request the load alternates between. */
export interface LoadTarget {
  readonly method: 'GET' | 'POST';
  /** Path and query. */
  readonly path: string;
  /** A JSON body (POST). */
  readonly body?: unknown;
}

export interface AlternatingLoadOptions {
  /** `https://host:port` of the server. */
  readonly url: string;
  /** The server's CA certificate (PEM). */
  readonly ca: string;
  readonly token: string;
  /** Connections, each with one request in flight. */
  readonly connections: number;
  /** The two kinds of request, by name: phases alternate between them, `a` first. */
  readonly a: LoadTarget;
  readonly b: LoadTarget;
  /** Milliseconds of one phase. */
  readonly phaseMs: number;
  /** Phases measured (alternating a, b, a, ...). */
  readonly phases: number;
  /** Milliseconds of alternating load before the measured phases. */
  readonly warmUpMs: number;
  /** Read at every phase's start and end (the server's CPU time, say): each phase gets the difference. */
  readonly sample?: () => number;
}

/** One measured phase: which kind was asked for, and when. */
export interface Phase {
  readonly kind: 0 | 1;
  readonly start: number;
  readonly end: number;
  /** How much `sample` grew over the phase (0 without one). */
  readonly sampled: number;
}

/** Completed requests, in completion order: the kind asked for and the time (ms) the answer ended. */
export interface Completions {
  readonly kinds: readonly (0 | 1)[];
  readonly times: readonly number[];
}

/** A phase's steady part: its kind's completions after the last answer of the other kind. */
export interface PhaseRate {
  readonly kind: 0 | 1;
  /** Requests of the phase's kind completed in its steady part. */
  readonly count: number;
  /** Milliseconds of the steady part. */
  readonly ms: number;
  /** Requests per second in the steady part (NaN when it is empty). */
  readonly rate: number;
}

/**
 * The rate of each phase in its steady part. At a switch, the requests still in flight are of
 * the kind before: they finish early in the next phase, and the server works on nothing else
 * until the last of them is answered. The steady part runs from that last answer (or the phase's
 * start) to the phase's end; its completions are of the phase's kind only. Answers of the
 * phase's kind that finish in the next phase are counted in neither.
 */
export function phaseRates(phases: readonly Phase[], done: Completions): PhaseRate[] {
  const out: PhaseRate[] = [];
  let i = 0;
  for (const phase of phases) {
    while (i < done.times.length && done.times[i]! <= phase.start) i++;
    let steadyFrom = phase.start;
    let count = 0;
    for (; i < done.times.length && done.times[i]! <= phase.end; i++) {
      if (done.kinds[i] === phase.kind) count++;
      else {
        steadyFrom = done.times[i]!;
        count = 0;
      }
    }
    const ms = phase.end - steadyFrom;
    out.push({ kind: phase.kind, count, ms, rate: ms > 0 && count > 0 ? (count * 1000) / ms : Number.NaN });
  }
  return out;
}

/**
 * For each phase of kind `b` with a phase of kind `a` on both sides, its rate over the mean of
 * theirs: the machine's speed drifts, and the neighbours' mean is the `a` rate at the middle of
 * the `b` phase, were the drift linear. Phases without a steady part are left out.
 */
export function neighbourRatios(rates: readonly PhaseRate[]): number[] {
  const out: number[] = [];
  for (let i = 1; i + 1 < rates.length; i++) {
    const [before, here, after] = [rates[i - 1]!, rates[i]!, rates[i + 1]!];
    if (here.kind !== 1 || before.kind !== 0 || after.kind !== 0) continue;
    const ratio = here.rate / ((before.rate + after.rate) / 2);
    if (Number.isFinite(ratio)) out.push(ratio);
  }
  return out;
}

/** What one alternating run says of each kind, and of `b` against `a`. */
export interface AlternatingSummary {
  /** Requests per second of each kind over the steady parts of its phases. */
  readonly rates: readonly [number, number];
  /**
   * `sample`'s growth per request of each kind: a phase's growth, scaled to its steady part (the
   * server is busy throughout), over its steady part's requests.
   */
  readonly sampledPerRequest: readonly [number, number];
  /** {@link neighbourRatios}: `b` over `a`, phase by phase. */
  readonly ratios: readonly number[];
  /** The median of `ratios`: the figure. */
  readonly ratio: number;
  /** The 10th and 90th percentile of `ratios`. */
  readonly spread: readonly [number, number];
  /** The share of the measured time that was steady (the rest drained the other kind's requests). */
  readonly steadyShare: number;
}

export function summarize(phases: readonly Phase[], done: Completions): AlternatingSummary {
  const rates = phaseRates(phases, done);
  const count = [0, 0];
  const ms = [0, 0];
  const sampled = [0, 0];
  let total = 0;
  rates.forEach((r, i) => {
    const phase = phases[i]!;
    const length = phase.end - phase.start;
    total += length;
    count[r.kind]! += r.count;
    ms[r.kind]! += r.ms;
    if (length > 0) sampled[r.kind]! += (phase.sampled * r.ms) / length;
  });
  const ratios = neighbourRatios(rates);
  const sorted = [...ratios].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    rates: [(count[0]! * 1000) / ms[0]!, (count[1]! * 1000) / ms[1]!],
    sampledPerRequest: [sampled[0]! / count[0]!, sampled[1]! / count[1]!],
    ratios,
    ratio: median(ratios),
    spread: [at(0.1), at(0.9)],
    steadyShare: (ms[0]! + ms[1]!) / total,
  };
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[^\r]*chunked/i;

/** What a response parser reports: an answer ended (its status), or nothing yet. */
type Parsed = { status: number; head: string } | undefined;

/**
 * Reads HTTP/1.1 responses from a byte stream, one after another: `Content-Length` or chunked
 * bodies. Only the status and the end of each answer matter here, so bodies are skipped.
 */
export class ResponseReader {
  private pending: Buffer = Buffer.alloc(0);
  private status = 0;
  private head = '';
  /** Body bytes still to skip (length-delimited), or -1 while reading the head, -2 while chunked. */
  private remaining = -1;

  /** Feeds bytes; returns the answers they end (the statuses, in order). */
  push(chunk: Buffer): { status: number; head: string }[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const ended: { status: number; head: string }[] = [];
    for (;;) {
      const answer = this.step();
      if (answer === undefined) return ended;
      ended.push(answer);
    }
  }

  private step(): Parsed {
    if (this.remaining === -1) {
      const end = this.pending.indexOf(CRLF_CRLF);
      if (end < 0) return undefined;
      const head = this.pending.toString('latin1', 0, end);
      this.pending = this.pending.subarray(end + 4);
      this.status = Number(head.slice(9, 12));
      this.head = head;
      const length = CONTENT_LENGTH.exec(head);
      if (length) this.remaining = Number(length[1]);
      else if (CHUNKED.test(head)) this.remaining = -2;
      else throw new Error(`an answer with neither Content-Length nor chunked body: ${head.split('\r\n')[0]}`);
    }
    if (this.remaining === -2) return this.chunk();
    if (this.pending.length < this.remaining) {
      this.remaining -= this.pending.length;
      this.pending = Buffer.alloc(0);
      return undefined;
    }
    this.pending = this.pending.subarray(this.remaining);
    this.remaining = -1;
    return { status: this.status, head: this.head };
  }

  /** One chunk of a chunked body; the answer when it was the last (zero-sized) one. */
  private chunk(): Parsed {
    const lineEnd = this.pending.indexOf('\r\n');
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(this.pending.toString('latin1', 0, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error('a malformed chunk size');
    // The chunk's data and its CRLF; the last chunk is followed by (no trailers) one CRLF.
    const total = lineEnd + 2 + size + 2;
    if (this.pending.length < total) return undefined;
    this.pending = this.pending.subarray(total);
    if (size > 0) return this.chunk();
    this.remaining = -1;
    return { status: this.status, head: this.head };
  }
}

function requestBytes(target: LoadTarget, host: string, token: string): Buffer {
  const body = target.body === undefined ? undefined : Buffer.from(JSON.stringify(target.body));
  const head = [
    `${target.method} ${target.path} HTTP/1.1`,
    `Host: ${host}`,
    `Authorization: Bearer ${token}`,
    'Accept: application/json',
    ...(body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : []),
    '',
    '',
  ].join('\r\n');
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

/**
 * Load that switches between two kinds of request every `phaseMs` on connections kept open
 * throughout: each connection asks for the current phase's kind whenever its answer comes. Both
 * kinds meet the machine at the same speeds, phase by phase, where separate runs of a load
 * generator (seconds apart, each with its own connections and handshakes) meet it at different
 * ones. Resolves with the measured phases and every completion; rejects on an answer other than
 * 2xx, naming its status, or on a connection's error.
 */
export async function alternatingLoad(o: AlternatingLoadOptions): Promise<{ phases: Phase[]; done: Completions }> {
  const { hostname, port } = new URL(o.url);
  const host = `${hostname}:${port}`;
  const requests = [requestBytes(o.a, host, o.token), requestBytes(o.b, host, o.token)] as const;
  const kinds: (0 | 1)[] = [];
  const times: number[] = [];
  const sockets: TLSSocket[] = [];
  let current: 0 | 1 = 0;
  let stopped = false;
  let failure: Error | undefined;
  let fail: (e: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = (e) => {
      failure ??= e;
      reject(failure);
    };
  });
  failed.catch(() => {});
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port), ca: o.ca, ALPNProtocols: ['http/1.1'] });
      sockets.push(socket);
      const reader = new ResponseReader();
      let asked: 0 | 1 = 0;
      const ask = () => {
        asked = current;
        socket.write(requests[asked]);
      };
      socket.once('secureConnect', () => {
        resolve();
        ask();
      });
      socket.on('data', (chunk: Buffer) => {
        const now = performance.now();
        let answers: { status: number; head: string }[];
        try {
          answers = reader.push(chunk);
        } catch (e) {
          return fail(e as Error);
        }
        for (const answer of answers) {
          if (answer.status < 200 || answer.status > 299) {
            return fail(new Error(`answer ${answer.status} to ${requests[asked].toString('latin1').split('\r\n')[0]}`));
          }
          kinds.push(asked);
          times.push(now);
          if (!stopped) ask();
        }
      });
      socket.on('error', (e) => {
        reject(e);
        fail(e);
      });
      socket.on('close', () => {
        if (!stopped) fail(new Error('the server closed a connection'));
      });
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await Promise.race([Promise.all(Array.from({ length: o.connections }, open)), failed]);
    const phases: Phase[] = [];
    const warmUpPhases = Math.max(2, 2 * Math.round(o.warmUpMs / (2 * o.phaseMs)));
    for (let p = 0; p < warmUpPhases + o.phases; p++) {
      current = (p % 2) as 0 | 1;
      const start = performance.now();
      const before = o.sample?.() ?? 0;
      await Promise.race([sleep(o.phaseMs), failed]);
      const end = performance.now();
      const sampled = (o.sample?.() ?? 0) - before;
      if (p >= warmUpPhases) phases.push({ kind: current, start, end, sampled });
    }
    stopped = true;
    return { phases, done: { kinds, times } };
  } finally {
    stopped = true;
    for (const s of sockets) s.destroy();
  }
}

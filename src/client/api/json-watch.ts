import type { IncomingMessage } from 'node:http';
import type { ApiObject } from '../../apis/object.js';
import type { ClientWatch, ClientWatchEvent, ClientWatchEventType } from './api-client.js';

const TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** A watch stream line that is not a watch event. */
export class WatchDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WatchDecodeError';
  }
}

/** Decodes one line of a JSON watch stream (`{"type":…,"object":…}`). */
export function decodeWatchLine(line: string, fill?: (obj: ApiObject) => ApiObject): ClientWatchEvent {
  let ev: { type?: unknown; object?: unknown };
  try {
    ev = JSON.parse(line) as typeof ev;
  } catch (e) {
    throw new WatchDecodeError('watch stream: a line is not JSON', { cause: e });
  }
  if (!ev || typeof ev.type !== 'string' || !TYPES.has(ev.type) || !ev.object || typeof ev.object !== 'object') {
    throw new WatchDecodeError('watch stream: a line is not a watch event');
  }
  const object = ev.object as ApiObject;
  const type = ev.type as ClientWatchEventType;
  return { type, object: fill && type !== 'ERROR' ? fill(object) : object };
}

/**
 * A watch over a streamed JSON response (one event per line, as kube's JSON watch encoder
 * writes). Iterating reads the stream with backpressure; it ends when the server ends the
 * response, and quietly when `stop()` is called (or the request's signal aborts, which `stop`
 * does through `abort`). A broken connection or an undecodable line throws from the iteration.
 */
export class JsonWatch implements ClientWatch {
  private stopped = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly abort: () => void,
    private readonly signal: AbortSignal,
    private readonly fill?: (obj: ApiObject) => ApiObject,
  ) {
    res.setEncoding('utf8');
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // A response the server ended has released its (kept-alive) connection: leave it alone.
    if (this.res.complete) return;
    this.abort();
    this.res.destroy();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ClientWatchEvent> {
    let buf = '';
    try {
      for await (const chunk of this.res as AsyncIterable<string>) {
        if (this.stopped) return;
        buf += chunk;
        let nl = buf.indexOf('\n');
        while (nl >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) yield decodeWatchLine(line, this.fill);
          if (this.stopped) return;
          nl = buf.indexOf('\n');
        }
      }
      const rest = buf.trim();
      if (rest && !this.stopped) yield decodeWatchLine(rest, this.fill);
    } catch (e) {
      if (this.stopped || this.signal.aborted) return;
      throw e;
    } finally {
      this.stop();
    }
  }
}

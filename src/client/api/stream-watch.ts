import type { IncomingMessage } from 'node:http';
import type { ApiObject } from '../../apis/object.js';
import type { WatchEventDecoder } from '../wire/watch-decoders.js';
import type { ClientWatch, ClientWatchEvent } from './api-client.js';

/**
 * A watch over a streamed response in any wire format (JSON lines, Protobuf frames, a CBOR
 * sequence; `decoder` reads it). Iterating reads the stream with backpressure; it ends when the
 * server ends the response, and quietly when `stop()` is called (or the request's signal
 * aborts, which `stop` does through `abort`). A broken connection or undecodable data throws
 * from the iteration. `fill` completes objects the server sent without apiVersion or kind
 * (ERROR events' Status objects are left as they are).
 */
export class StreamWatch implements ClientWatch {
  private stopped = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly decoder: WatchEventDecoder,
    private readonly abort: () => void,
    private readonly signal: AbortSignal,
    private readonly fill?: (obj: ApiObject) => ApiObject,
  ) {}

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // A response the server ended has released its (kept-alive) connection: leave it alone.
    if (this.res.complete) return;
    this.abort();
    this.res.destroy();
  }

  private filled(ev: ClientWatchEvent): ClientWatchEvent {
    return this.fill && ev.type !== 'ERROR' ? { type: ev.type, object: this.fill(ev.object) } : ev;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ClientWatchEvent> {
    try {
      for await (const chunk of this.res as AsyncIterable<Buffer>) {
        if (this.stopped) return;
        for (const ev of this.decoder.push(chunk)) {
          yield this.filled(ev);
          if (this.stopped) return;
        }
      }
      if (this.stopped) return;
      for (const ev of this.decoder.finish()) yield this.filled(ev);
    } catch (e) {
      if (this.stopped || this.signal.aborted) return;
      throw e;
    } finally {
      this.stop();
    }
  }
}

import { ResponseStateError } from './errors.js';
import type { ServingContext } from './serving-context.js';

/**
 * The part of an exchange both transports keep the same way: whether a response has started,
 * whether the exchange is closed (and whether it closed before its response finished), and the
 * request's abort signal, created only when someone asks for it.
 */
export abstract class ExchangeLifecycle {
  abstract readonly method: string;
  abstract readonly url: string;
  private state: 'pending' | 'responded' = 'pending';
  protected isClosed = false;
  private aborted = false;
  private controller: AbortController | undefined = undefined;

  constructor(protected readonly ctx: ServingContext) {}

  get responded(): boolean {
    return this.state !== 'pending';
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Starts the response; a second start is a programming error. */
  protected begin(): void {
    if (this.state !== 'pending')
      throw new ResponseStateError(`response to ${this.method} ${this.url} already started`);
    this.state = 'responded';
  }

  /**
   * Records the close (once: false when already closed). `aborted`: the response did not finish,
   * which aborts the request's signal.
   */
  protected markClosed(aborted: boolean): boolean {
    if (this.isClosed) return false;
    this.isClosed = true;
    this.aborted = aborted;
    if (aborted) this.controller?.abort();
    return true;
  }
}

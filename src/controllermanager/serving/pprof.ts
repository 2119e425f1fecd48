import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { sleep } from '../../client/client-support.js';

/** Go's `pprof.Profile` default when `seconds` is absent or not a positive integer. */
const DEFAULT_SECONDS = 30;

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

/**
 * `/debug/pprof/...` of one server (kube installs Go's net/http/pprof when
 * `Debugging.enableProfiling`). Node has no pprof: `/debug/pprof/profile?seconds=N` records a V8
 * CPU profile through an inspector session for N seconds (default 30) and answers it as JSON
 * (`.cpuprofile`, readable by Chrome DevTools); one at a time, as Go allows. `/debug/pprof/`
 * lists what is served, `/debug/pprof/cmdline` is the command line (NUL-separated); other
 * profiles are 404 `Unknown profile`.
 */
export class PprofHandler {
  private busy = false;

  constructor(private readonly signal: AbortSignal) {}

  async serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const name = path.slice('/debug/pprof/'.length);
    if (name === '') {
      text(
        res,
        200,
        '/debug/pprof/\n\nprofile: CPU profile (V8 .cpuprofile JSON). Add seconds=N to set the duration (default 30).\ncmdline: the command line of the program.\n',
      );
      return;
    }
    if (name === 'cmdline') {
      text(res, 200, process.argv.join('\x00'));
      return;
    }
    if (name !== 'profile') {
      text(res, 404, 'Unknown profile\n');
      return;
    }
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const requested = Number(query.get('seconds'));
    const seconds = Number.isInteger(requested) && requested > 0 ? requested : DEFAULT_SECONDS;
    if (this.busy) {
      text(res, 500, 'Could not enable CPU profiling: cpu profiling already in use\n');
      return;
    }
    this.busy = true;
    const session = new Session();
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    try {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      await sleep(seconds * 1000, AbortSignal.any([gone.signal, this.signal]));
      const { profile } = await session.post('Profiler.stop');
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Disposition': 'attachment; filename="profile.cpuprofile"',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(JSON.stringify(profile));
    } catch (e) {
      if (!res.headersSent) text(res, 500, `Could not enable CPU profiling: ${(e as Error).message}\n`);
    } finally {
      session.disconnect();
      this.busy = false;
    }
  }
}

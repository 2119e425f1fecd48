import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How one h2load run of creates is made. */
export interface CreateLoad {
  /** Seconds measured, after the warm-up. */
  readonly seconds: number;
  /** Seconds of load before the measurement starts (connections made, TLS handshakes done). */
  readonly warmUpSeconds: number;
  readonly token: string;
  /** A directory for the request body file. */
  readonly dir: string;
  /** Names the run in file names and errors (`pod`, `cm`). */
  readonly tag: string;
  /** Called when the measured window starts (the warm-up's end, to a few milliseconds). */
  readonly onMeasureStart?: () => void;
}

/**
 * Creates per second: h2load POSTs `body` (with `generateName`) over 64 HTTP/1.1 connections,
 * one request in flight on each, and counts only the requests of the measured window.
 *
 * Why not wrk: wrk polls a connection whose TLS handshake is still waiting for the server in a
 * busy loop (it asks for writability, which a connected socket always has, and retries the
 * handshake). Each wrk run opens its 64 connections anew, and while a server busy with slow
 * requests answers their handshakes, wrk spins on both cores and takes CPU from the server it
 * measures: the slower the requests, the longer the handshakes wait and the more it takes. The
 * created kinds differ in cost, so the spin skewed the figure against the slower one. h2load
 * waits on its sockets and leaves its warm-up out of the figure.
 */
export function h2loadCreates(url: string, body: unknown, load: CreateLoad): Promise<number> {
  const bodyFile = join(load.dir, `${load.tag}.json`);
  writeFileSync(bodyFile, JSON.stringify(body));
  const args = [
    '--h1',
    '-c64',
    '-m1',
    '-t1',
    `--warm-up-time=${load.warmUpSeconds}`,
    `-D${load.seconds}`,
    `-d${bodyFile}`,
    '-Hcontent-type: application/json',
    `-Hauthorization: Bearer ${load.token}`,
    url,
  ];
  const timeout = (load.warmUpSeconds + load.seconds + 30) * 1000;
  return new Promise((resolve, reject) => {
    const started = load.onMeasureStart ? setTimeout(load.onMeasureStart, load.warmUpSeconds * 1000) : undefined;
    execFile('h2load', args, { timeout }, (err, stdout, stderr) => {
      clearTimeout(started);
      if (err) {
        const said = `${stderr}${stdout}`.trim().split('\n').slice(-3).join(' / ');
        return reject(new Error(`h2load failed creating ${load.tag} (${err.code ?? err.signal}): ${said}`));
      }
      try {
        resolve(h2loadRate(stdout, load.tag));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/**
 * The requests per second of an h2load report, or an error naming `tag` when a request failed,
 * was answered with anything but a 2xx, or none completed.
 */
export function h2loadRate(report: string, tag: string): number {
  const requests = /requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(
    report,
  );
  const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(report);
  const rate = /finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(report);
  if (!requests || !codes || !rate) throw new Error(`h2load printed no figures for ${tag}: ${report.slice(-500)}`);
  const [, , , succeeded, failed, errored] = requests.map(Number) as number[];
  const non2xx = Number(codes[2]) + Number(codes[3]) + Number(codes[4]);
  if (failed! > 0 || errored! > 0 || non2xx > 0) {
    throw new Error(`h2load saw ${failed} failed, ${errored} errored and ${non2xx} non-2xx requests creating ${tag}`);
  }
  if (succeeded === 0 || Number(rate[1]) === 0) throw new Error(`no ${tag} create completed`);
  return Number(rate[1]);
}

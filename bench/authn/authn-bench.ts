import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchServer } from '../api/server-proc.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';
import { keepAliveRps, type LoadCredentials } from './keepalive-load.js';

const SECONDS = 5;
const CONNECTIONS = 32;
const ROUNDS = 3;
const STATIC_TOKEN = 'bench-static-token-7f3a9c1e5b2d4a60';
const GET_PATH = '/api/v1/namespaces/default/configmaps/bench?resourceVersion=0';

/** One JSON request with the admin certificate; resolves with the parsed body or rejects. */
function adminCall(
  base: string,
  creds: LoadCredentials,
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { method, ca: creds.ca, cert: creds.cert, key: creds.key, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Cached GETs of one ConfigMap authenticated three ways against one server: by client
 * certificate (the baseline), by a service-account token (a signed JWT, verified once and then
 * served from the token cache) and by a static token. Rounds alternate the three; each figure is
 * the median over rounds of its ratio to the certificate run of the same round.
 */
export async function runAuthnBench(options: BenchOptions): Promise<void> {
  const seconds = options.quick ? Math.min(2, SECONDS) : SECONDS;
  const rounds = options.quick ? Math.min(2, ROUNDS) : ROUNDS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-authn-bench-'));
  try {
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${STATIC_TOKEN},bench-user,bench-uid,"bench"\n`);
    // AlwaysAllow: authorization costs nothing, so the figures compare authentication alone.
    const server = await startBenchServer(join(dir, 'data'), [
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=AlwaysAllow',
    ]);
    try {
      const admin = server.admin;
      await adminCall(server.url, admin, 'POST', '/api/v1/namespaces/default/configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'bench' },
        data: { key: 'value' },
      });
      await adminCall(server.url, admin, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'bench' },
      });
      const tokenRequest = await adminCall(
        server.url,
        admin,
        'POST',
        '/api/v1/namespaces/default/serviceaccounts/bench/token',
        { kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
      );
      const saToken = (tokenRequest.status as { token?: string } | undefined)?.token;
      if (!saToken) throw new Error('TokenRequest returned no token');
      const modes: [string, LoadCredentials][] = [
        ['client certificate', admin],
        ['service-account token', { ca: admin.ca, token: saToken }],
        ['static token', { ca: admin.ca, token: STATIC_TOKEN }],
      ];
      const rps = new Map<string, number[]>(modes.map(([m]) => [m, []]));
      for (let round = 0; round < rounds; round++) {
        for (const [mode, creds] of modes) {
          const r = await keepAliveRps(server.url, GET_PATH, creds, { seconds: seconds, connections: CONNECTIONS });
          rps.get(mode)!.push(r);
        }
      }
      const certRuns = rps.get('client certificate')!;
      const rows: Row[] = [];
      const figures: Record<string, number> = {};
      for (const [mode] of modes) {
        const runs = rps.get(mode)!;
        const ratios = runs.map((r, i) => r / certRuns[i]!);
        rows.push({
          metric: `cached GET, ${mode} (${CONNECTIONS} keep-alive conns)`,
          ours: median(runs),
          baseline: median(certRuns),
          unit: 'req/s',
          ratio: median(ratios),
          spread: [Math.min(...ratios), Math.max(...ratios)],
        });
        figures[`${mode.replaceAll(' ', '-')}.rps`] = Math.round(median(runs));
        figures[`${mode.replaceAll(' ', '-')}.ratio`] = Math.round(median(ratios) * 1000) / 1000;
      }
      printTable('authentication: cached GETs by credential kind (baseline: client certificate)', rows);
      printFigures(figures);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

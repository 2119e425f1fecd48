import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Outcome of one health probe. */
export interface ProbeResult {
  readonly healthy: boolean;
  /** Short text: the status code and body, or the connection error. */
  readonly detail: string;
}

/** GET `http://127.0.0.1:<port>/health` of an etcd member. */
export async function probeEtcd(port: number, timeoutMs = 2000): Promise<ProbeResult> {
  const r = await get({ url: `http://127.0.0.1:${port}/health`, timeoutMs });
  if (r.status === undefined) return { healthy: false, detail: r.body };
  let health = '';
  try {
    health = String((JSON.parse(r.body) as { health?: unknown }).health);
  } catch {
    // not JSON: reported below
  }
  return { healthy: r.status === 200 && health === 'true', detail: `${r.status} health=${health || r.body.trim()}` };
}

/** GET `https://127.0.0.1:<port>/readyz` (anonymous, verified against `caPem`). */
export async function probeReadyz(port: number, caPem: string, timeoutMs = 2000): Promise<ProbeResult> {
  const r = await get({ url: `https://127.0.0.1:${port}/readyz`, caPem, timeoutMs });
  if (r.status === undefined) return { healthy: false, detail: r.body };
  return { healthy: r.status === 200, detail: `${r.status} ${r.body.trim().split('\n')[0]}` };
}

interface GetOptions {
  readonly url: string;
  readonly caPem?: string;
  readonly timeoutMs: number;
}

function get(options: GetOptions): Promise<{ status: number | undefined; body: string }> {
  return new Promise((resolve) => {
    const url = new URL(options.url);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method: 'GET', ca: options.caPem, timeout: options.timeoutMs, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (body.length < 4096) body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (e) => resolve({ status: undefined, body: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (e) => resolve({ status: undefined, body: e.message }));
    req.end();
  });
}

/** An etcd member's own ID and the ID of the leader it follows (etcd's maintenance status). */
export interface EtcdMemberStatus {
  readonly memberId: string;
  readonly leader: string;
}

/** POST `/v3/maintenance/status` of one etcd member; undefined when it does not answer. */
export async function etcdMemberStatus(port: number, timeoutMs = 2000): Promise<EtcdMemberStatus | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v3/maintenance/status`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { header?: { member_id?: string }; leader?: string };
    if (!body.header?.member_id || !body.leader) return undefined;
    return { memberId: body.header.member_id, leader: body.leader };
  } catch {
    return undefined;
  }
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResourceDefinition } from '../../resource-definition.js';
import { buildOpenApiV3Documents, buildOpenApiV3Root } from '../documents.js';

/** A request the test server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly accept: string;
  readonly contentType: string;
  readonly body: string;
}

/**
 * A minimal HTTP server on 127.0.0.1 for tests that run the real kubectl against the OpenAPI
 * documents: legacy discovery (`/api`, `/apis`, resource lists), `/version`, `/openapi/v3`
 * with its group-version documents, and a naive object store: POST stores the body under
 * `<collection>/<metadata.name>` (201), GET returns it, PUT replaces it, PATCH returns it
 * unchanged. Records every request. Test-only: the real endpoints live in the endpoints layer.
 */
export class DiscoveryTestServer {
  readonly requests: SeenRequest[] = [];
  private readonly objects = new Map<string, string>();
  private server: Server | undefined;
  private readonly docs;

  constructor(private readonly defs: readonly ResourceDefinition[]) {
    this.docs = buildOpenApiV3Documents(defs);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      this.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        accept: String(req.headers.accept ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        body,
      });
      const reply = this.route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x'), body);
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(reply.body);
    });
  }

  private route(method: string, url: URL, body: string): { status: number; body: string } {
    const json = (value: unknown, status = 200) => ({ status, body: JSON.stringify(value) });
    const path = url.pathname;
    if (method === 'POST') {
      const name = (JSON.parse(body) as { metadata?: { name?: string } }).metadata?.name ?? '';
      this.objects.set(`${path}/${name}`, body);
      return { status: 201, body };
    }
    if (method === 'PUT') {
      this.objects.set(path, body);
      return { status: 200, body };
    }
    const stored = this.objects.get(path);
    if (stored !== undefined && (method === 'GET' || method === 'PATCH')) return { status: 200, body: stored };
    if (path === '/version') return json({ major: '1', minor: '32', gitVersion: 'v1.32.0-orch' });
    if (path === '/api') return json({ kind: 'APIVersions', versions: ['v1'] });
    if (path === '/apis') return json(this.groupList());
    if (path === '/api/v1') return json(this.resourceList('', 'v1'));
    const gv = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
    if (gv) return json(this.resourceList(gv[1], gv[2]));
    if (path === '/openapi/v3') return json(buildOpenApiV3Root(this.defs));
    const doc = this.docs.get(path.replace(/^\/openapi\/v3\//, ''));
    if (doc) return { status: 200, body: doc.body };
    return json({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }, 404);
  }

  private groupList() {
    const groups = new Map<string, string[]>();
    for (const d of this.defs)
      if (d.group) groups.set(d.group, [...new Set([...(groups.get(d.group) ?? []), d.version])]);
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups].map(([name, versions]) => ({
        name,
        versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
        preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
      })),
    };
  }

  private resourceList(group: string, version: string) {
    const resources = this.defs
      .filter((d) => d.group === group && d.version === version)
      .flatMap((d) => [
        {
          name: d.resource,
          singularName: d.singular,
          namespaced: d.namespaced,
          kind: d.kind,
          verbs: d.verbs,
          shortNames: d.shortNames.length > 0 ? d.shortNames : undefined,
        },
        ...d.subresources.map((s) => ({
          name: `${d.resource}/${s.name}`,
          singularName: '',
          namespaced: d.namespaced,
          kind: d.kind,
          verbs: s.verbs,
        })),
      ]);
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources,
    };
  }
}

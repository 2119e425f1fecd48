import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { BuiltinResourceDefinition } from '../../../apis/meta/builtin-definition.js';
import { apiErrors, type StatusError } from '../../../apis/meta/status.js';
import type { ApiObject, JsonObject } from '../../../apis/object.js';
import type { HttpExchange, SecureServer } from '../../../server/serving/index.js';
import { startSecureServer } from '../../../server/serving/index.js';
import { writeAdminKubeconfig } from '../../../server/tls/kubeconfig.js';
import { createTestPki, type TestPki } from '../../../server/tls/testing/test-pki.js';
import { encodeList } from '../list-codec.js';
import { isProtobufMediaType, KUBERNETES_PROTOBUF_MEDIA_TYPE, protobufWatchContentType } from '../media-types.js';
import { decodeObject, encodeObject } from '../object-codec.js';
import { encodeStatus } from '../status-codec.js';
import { encodeWatchFrame } from '../watch-codec.js';

/** A request the server saw, with the object it decoded from a write's body. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly accept: string;
  readonly contentType: string;
  /** The encoding the response was written in. */
  answeredIn?: 'protobuf' | 'json';
  decoded?: ApiObject;
}

/** A watch event to stream (the object of `type` ERROR must be a Status). */
export interface ScriptedEvent {
  readonly type: string;
  readonly object: ApiObject;
}

const CREATED_AT = '2024-05-06T07:08:09Z';

/**
 * A test-only HTTPS API server on 127.0.0.1 for the core/v1 resources it is given: JSON
 * discovery, and create / get / list / watch answered in protobuf whenever the client's Accept
 * allows it (JSON otherwise), request bodies decoded from protobuf with the codec under test.
 * Writes become objects in memory; watches stream `watchScript` and end.
 */
export class ProtobufApiTestServer {
  readonly requests: SeenRequest[] = [];
  readonly objects = new Map<string, ApiObject>();
  watchScript: ScriptedEvent[] = [];
  private pki: TestPki | undefined;
  private server: SecureServer | undefined;
  private revision = 100;

  constructor(private readonly defs: readonly BuiltinResourceDefinition[]) {}

  /** Starts the server and writes an admin kubeconfig; returns its path. */
  async start(): Promise<{ kubeconfig: string; home: string }> {
    this.pki = await createTestPki();
    const client = await this.pki.issueClient('admin', ['system:masters']);
    this.server = await startSecureServer({
      host: '127.0.0.1',
      port: 0,
      tls: { cert: this.pki.certs.cert, key: this.pki.certs.key, ca: this.pki.certs.clientCa },
      handler: (ex) => this.handle(ex),
    });
    const kubeconfig = join(this.pki.dir, 'kubeconfig');
    await writeAdminKubeconfig({
      path: kubeconfig,
      serverUrl: this.server.url,
      caPem: this.pki.certs.servingCa ?? '',
      clientCertPem: client.cert,
      clientKeyPem: client.key,
    });
    return { kubeconfig, home: this.pki.dir };
  }

  async stop(): Promise<void> {
    await this.server?.close({ drainTimeoutMs: 200 });
    await this.pki?.cleanup();
  }

  /** Stores an object as if it had been created (server fields are the caller's). */
  seed(def: BuiltinResourceDefinition, obj: ApiObject): void {
    this.objects.set(this.objectPath(def, obj.metadata.namespace, obj.metadata.name ?? ''), obj);
  }

  private objectPath(def: BuiltinResourceDefinition, namespace: string | undefined, name: string): string {
    return def.namespaced ? `${namespace}/${def.resource}/${name}` : `${def.resource}/${name}`;
  }

  private async handle(ex: HttpExchange): Promise<void> {
    const url = new URL(ex.url, 'https://x');
    const seen: SeenRequest = {
      method: ex.method,
      path: url.pathname,
      query: url.searchParams,
      accept: String(ex.headers.accept ?? ''),
      contentType: String(ex.headers['content-type'] ?? ''),
    };
    this.requests.push(seen);
    const json = (status: number, body: unknown) =>
      ex.respond(status, { 'content-type': 'application/json' }, JSON.stringify(body));
    if (url.pathname === '/version') return json(200, { major: '1', minor: '32', gitVersion: 'v1.32.0-orch' });
    if (url.pathname === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'] });
    if (url.pathname === '/apis') return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    if (url.pathname === '/api/v1') return json(200, this.resourceList());
    const route = this.route(url.pathname);
    const protobuf = this.prefersProtobuf(seen.accept);
    seen.answeredIn = protobuf ? 'protobuf' : 'json';
    const answer = (status: number, obj: ApiObject, list?: BuiltinResourceDefinition) => {
      if (!protobuf) return json(status, obj);
      const body = list ? encodeList(list.schema, obj) : encodeObject(route!.def.schema, obj);
      ex.respond(status, { 'content-type': KUBERNETES_PROTOBUF_MEDIA_TYPE }, body);
    };
    const fail = (err: StatusError) => {
      const status = err.toStatus();
      if (!protobuf) return json(err.code, status);
      ex.respond(err.code, { 'content-type': KUBERNETES_PROTOBUF_MEDIA_TYPE }, encodeStatus(status));
    };
    if (!route) return fail(apiErrors.notFound({ group: '', resource: url.pathname }, ''));
    const { def, namespace, name } = route;
    if (ex.method === 'POST' && !name) {
      const body = await ex.readBody(3 * 1024 * 1024);
      const expected = { apiVersion: 'v1', kind: def.kind };
      const obj = isProtobufMediaType(seen.contentType)
        ? decodeObject(def.schema, body, expected)
        : (JSON.parse(body.toString('utf8')) as ApiObject);
      seen.decoded = structuredClone(obj);
      const key = this.objectPath(def, namespace, obj.metadata.name ?? '');
      if (this.objects.has(key))
        return fail(apiErrors.alreadyExists({ group: '', resource: def.resource }, obj.metadata.name ?? ''));
      const created = this.create(def, obj, namespace, seen.query.get('fieldManager') ?? 'unknown');
      this.objects.set(key, created);
      return answer(201, created);
    }
    if (ex.method !== 'GET') return fail(apiErrors.methodNotAllowed(ex.method));
    if (name) {
      const obj = this.objects.get(this.objectPath(def, namespace, name));
      return obj ? answer(200, obj) : fail(apiErrors.notFound({ group: '', resource: def.resource }, name));
    }
    if (seen.query.get('watch') === 'true' || seen.query.get('watch') === '1') return this.watch(ex, protobuf, def);
    const prefix = def.namespaced ? `${namespace}/${def.resource}/` : `${def.resource}/`;
    const items = [...this.objects].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
    const list = { apiVersion: 'v1', kind: def.listKind, metadata: { resourceVersion: String(this.revision) }, items };
    return answer(200, list as unknown as ApiObject, def);
  }

  private watch(ex: HttpExchange, protobuf: boolean, def: BuiltinResourceDefinition): void {
    const contentType = protobuf ? protobufWatchContentType(KUBERNETES_PROTOBUF_MEDIA_TYPE) : 'application/json';
    const stream = ex.stream(200, { 'content-type': contentType });
    for (const event of this.watchScript) {
      if (!protobuf) {
        stream.write(`${JSON.stringify(event)}\n`);
        continue;
      }
      const object =
        event.type === 'ERROR' ? encodeStatus(event.object as never) : encodeObject(def.schema, event.object);
      stream.write(encodeWatchFrame({ type: event.type, object }));
    }
    stream.end();
  }

  private create(
    def: BuiltinResourceDefinition,
    input: ApiObject,
    namespace: string | undefined,
    manager: string,
  ): ApiObject {
    const fieldsV1: JsonObject = {};
    for (const key of Object.keys(input)) {
      if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') fieldsV1[`f:${key}`] = {};
    }
    const obj: ApiObject = structuredClone(input);
    obj.metadata = {
      ...obj.metadata,
      ...(def.namespaced ? { namespace } : {}),
      uid: randomUUID(),
      resourceVersion: String(++this.revision),
      creationTimestamp: CREATED_AT,
      labels: { ...(obj.metadata.labels ?? {}), 'orch.io/created-by': 'protobuf-test' },
      managedFields: [
        { manager, operation: 'Update', apiVersion: 'v1', time: CREATED_AT, fieldsType: 'FieldsV1', fieldsV1 },
      ],
    };
    if (def.kind === 'Secret') obj.type = (obj.type as string | undefined) || 'Opaque';
    if (def.kind === 'Namespace') {
      obj.spec = { finalizers: ['kubernetes'] };
      obj.status = { phase: 'Active' };
    }
    return obj;
  }

  /** The first supported type in Accept order: protobuf, or JSON (also for Table requests, as a fallback). */
  private prefersProtobuf(accept: string): boolean {
    for (const part of accept.split(',')) {
      if (isProtobufMediaType(part)) return true;
      const essence = part.split(';')[0].trim();
      if ((essence === 'application/json' || essence === '*/*') && !part.includes('as=')) return false;
    }
    return false;
  }

  private route(path: string): { def: BuiltinResourceDefinition; namespace?: string; name?: string } | undefined {
    const parts = path
      .replace(/^\/api\/v1\/?/, '')
      .split('/')
      .filter(Boolean);
    if (!path.startsWith('/api/v1/') || parts.length === 0) return undefined;
    const byResource = (resource: string) => this.defs.find((d) => d.resource === resource);
    if (parts[0] === 'namespaces' && parts.length >= 3) {
      const def = byResource(parts[2]);
      return def?.namespaced ? { def, namespace: parts[1], name: parts[3] } : undefined;
    }
    const def = byResource(parts[0]);
    return def && !def.namespaced && parts.length <= 2 ? { def, name: parts[1] } : undefined;
  }

  private resourceList() {
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: this.defs.map((d) => ({
        name: d.resource,
        singularName: d.singular,
        namespaced: d.namespaced,
        kind: d.kind,
        verbs: d.verbs,
        shortNames: d.shortNames.length > 0 ? d.shortNames : undefined,
      })),
    };
  }
}

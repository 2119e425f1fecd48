import type { ApiDomain } from '../../apis/api-domain.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import {
  type AuditBackend,
  type AuditEvent,
  type AuditPolicyEvaluator,
  type AuditResponseStatus,
  type AuditStage,
  auditBody,
  auditUser,
  type RequestAuditConfig,
  recordsRequest,
} from '../../audit/index.js';
import { type Clock, formatMicroTime } from '../../util/clock.js';
import { type ApiRequest, type ApiResponse, bodyBytes, type Filter, isChunkedBody } from '../handler.js';

export interface AuditFilterOptions {
  readonly evaluator: AuditPolicyEvaluator;
  readonly backend: AuditBackend;
  readonly domain: ApiDomain;
  readonly clock: Clock;
}

/** The source IPs kube records: `X-Forwarded-For`, `X-Real-Ip`, then the peer's address. */
function sourceIPs(req: ApiRequest): string[] {
  const ips: string[] = [];
  const forwarded = req.headers['x-forwarded-for'];
  if (forwarded) for (const ip of forwarded.split(',')) if (ip.trim()) ips.push(ip.trim());
  const real = req.headers['x-real-ip'];
  if (real && !ips.includes(real.trim())) ips.push(real.trim());
  const peer = req.head.remoteAddress?.replace(/^::ffff:/, '');
  if (peer && !ips.includes(peer)) ips.push(peer);
  return ips;
}

function requestUri(req: ApiRequest): string {
  const q = req.query.toString();
  return q ? `${req.path}?${q}` : req.path;
}

/** The response status of a complete answer: the code, and a `Status` body's fields on failures. */
function responseStatus(res: ApiResponse): AuditResponseStatus {
  if (res.kind === 'body' && res.status >= 400) {
    const s = auditBody(bodyBytes(res.body), false) as
      | { kind?: string; status?: string; message?: string; reason?: string; details?: unknown }
      | undefined;
    if (s?.kind === 'Status') {
      return {
        metadata: {},
        ...(s.status ? { status: s.status } : {}),
        ...(s.message ? { message: s.message } : {}),
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.details ? { details: s.details } : {}),
        code: res.status,
      };
    }
  }
  return { metadata: {}, code: res.status };
}

/** Records one request's stages; created by the filter for requests whose level is not None. */
class RequestAudit {
  private readonly received: string;
  private requestBody: Buffer | undefined;

  constructor(
    private readonly req: ApiRequest,
    private readonly user: UserInfo,
    private readonly config: RequestAuditConfig,
    private readonly o: AuditFilterOptions,
  ) {
    this.received = formatMicroTime(o.clock.now());
    if (recordsRequest(config.level)) {
      const read = req.readBody.bind(req);
      req.readBody = async (limit) => {
        const body = await read(limit);
        this.requestBody = body;
        return body;
      };
    }
  }

  emit(stage: AuditStage, extra: Partial<AuditEvent> = {}): void {
    if (this.config.omitStages.has(stage)) return;
    const req = this.req;
    const info = req.info;
    const impersonated = req.user && req.user !== this.user ? auditUser(req.user) : undefined;
    const annotations = req.auditAnnotations ?? {};
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: `${this.o.domain.group('audit')}/v1`,
      level: this.config.level,
      auditID: req.auditId ?? '',
      stage,
      requestURI: requestUri(req),
      verb: info?.verb ?? req.method.toLowerCase(),
      user: auditUser(this.user),
      ...(impersonated ? { impersonatedUser: impersonated } : {}),
      sourceIPs: sourceIPs(req),
      ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
      ...(info?.isResourceRequest
        ? {
            objectRef: {
              resource: info.resource,
              ...(info.namespace ? { namespace: info.namespace } : {}),
              ...(info.name ? { name: info.name } : {}),
              apiGroup: info.apiGroup,
              apiVersion: info.apiVersion,
              ...(info.subresource ? { subresource: info.subresource } : {}),
            },
          }
        : {}),
      ...extra,
      ...(recordsRequest(this.config.level) && this.requestBody
        ? { requestObject: auditBody(this.requestBody, this.config.omitManagedFields) }
        : {}),
      requestReceivedTimestamp: this.received,
      stageTimestamp: formatMicroTime(this.o.clock.now()),
      ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
    };
    this.o.backend.write(event);
  }

  /** Whether the events carry the response object (level RequestResponse). */
  get recordsResponse(): boolean {
    return this.config.level === 'RequestResponse';
  }

  /** The ResponseComplete (or ResponseStarted) event of a complete answer. */
  completed(stage: AuditStage, res: ApiResponse): void {
    const withBody = this.recordsResponse && res.kind === 'body';
    this.emit(stage, {
      responseStatus: responseStatus(res),
      ...(withBody ? { responseObject: auditBody(bodyBytes(res.body), this.config.omitManagedFields) } : {}),
    });
  }
}

/**
 * kube's audit filter, after authentication: the policy decides the request's level from its
 * attributes (None: nothing is recorded); events are written for the stages `RequestReceived`,
 * `ResponseStarted` (streams: watches and connections), `ResponseComplete` and `Panic` unless the
 * policy omits them, with the request object (levels Request and RequestResponse) and the
 * response object (RequestResponse), the impersonated user, and the annotations later layers
 * add (authorization decision and reason, deprecated API versions).
 */
export function audit(o: AuditFilterOptions): Filter {
  // Not async: a request the policy leaves out, and an answer given at once, cost no promise.
  return (next) => (req) => {
    const info = req.info;
    const user = req.user;
    if (!info || !user) return next(req);
    const config = o.evaluator.evaluate({
      user,
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      apiGroup: info.apiGroup,
      namespace: info.namespace,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
    });
    if (config.level === 'None') return next(req);
    req.auditAnnotations = {};
    const a = new RequestAudit(req, user, config, o);
    a.emit('RequestReceived');
    const panicked = (e: unknown): never => {
      a.emit('Panic', {
        responseStatus: {
          metadata: {},
          status: 'Failure',
          message: `APIServer panic'd: ${e instanceof Error ? e.message : String(e)}`,
          reason: 'InternalError',
          code: 500,
        },
      });
      throw e;
    };
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = next(req);
    } catch (e) {
      return panicked(e);
    }
    return res instanceof Promise ? res.then((settled) => answered(a, settled), panicked) : answered(a, res);
  };
}

/** Records the answer's stage: ResponseComplete now, or ResponseStarted now and ResponseComplete when the stream ends. */
function answered(a: RequestAudit, res: ApiResponse): ApiResponse {
  if (res.kind === 'body') {
    // The response object is recorded from the whole body: one made in chunks is joined first
    // (and sent joined).
    const whole = a.recordsResponse && isChunkedBody(res.body) ? { ...res, body: bodyBytes(res.body) } : res;
    a.completed('ResponseComplete', whole);
    return whole;
  }
  a.completed('ResponseStarted', res);
  const pump = res.pump;
  return {
    ...res,
    pump: async (write, signal) => {
      try {
        await pump(write, signal);
      } finally {
        a.completed('ResponseComplete', res);
      }
    },
  };
}

/**
 * kube's failed-authentication audit: a request refused with 401 gets one `ResponseStarted`
 * event (no user; the policy is asked with an empty one) unless the policy says None.
 */
export function auditFailedAuthentication(o: AuditFilterOptions): (req: ApiRequest, res: ApiResponse) => void {
  return (req, res) => {
    const info = req.info;
    const anonymous: UserInfo = { name: '', groups: [] };
    const config = o.evaluator.evaluate({
      user: anonymous,
      verb: info?.verb ?? req.method.toLowerCase(),
      isResourceRequest: info?.isResourceRequest ?? false,
      path: info?.path ?? req.path,
      apiGroup: info?.apiGroup ?? '',
      namespace: info?.namespace ?? '',
      resource: info?.resource ?? '',
      subresource: info?.subresource ?? '',
      name: info?.name ?? '',
    });
    if (config.level === 'None') return;
    const a = new RequestAudit(req, anonymous, { ...config, level: 'Metadata' }, o);
    a.completed('ResponseStarted', res);
  };
}

import { createHash } from 'node:crypto';
import { parseAccept } from '../encoding/index.js';
import {
  encodeOpenApiV2,
  OPENAPI_V2_PROTOBUF_MEDIA_TYPE,
  OPENAPI_V2_PROTOBUF_MEDIA_TYPE_DEPRECATED,
} from '../encoding/protobuf/index.js';
import type { ApiRequest, BodyResponse, ResponseHeaders } from '../endpoints/handler.js';

type Form = 'json' | 'protobuf';

// What `/openapi/v2` offers, in kube-openapi's order: the first offer a clause matches wins.
const OFFERS: ReadonlyArray<{ readonly type: string; readonly subType: string; readonly form: Form }> = [
  { type: 'application', subType: 'json', form: 'json' },
  ...[OPENAPI_V2_PROTOBUF_MEDIA_TYPE_DEPRECATED, OPENAPI_V2_PROTOBUF_MEDIA_TYPE].map((t) => ({
    type: 'application',
    subType: t.slice('application/'.length),
    form: 'protobuf' as const,
  })),
];

/** The form kube-openapi serves for `accept` (absent: any), or undefined for its empty 406. */
export function openApiV2Form(accept: string | undefined): Form | undefined {
  for (const clause of parseAccept(accept || '*/*')) {
    for (const offer of OFFERS) {
      if (clause.type !== offer.type && clause.type !== '*') continue;
      if (clause.subType !== offer.subType && clause.subType !== '*') continue;
      return offer.form;
    }
  }
  return undefined;
}

/**
 * Serves `/openapi/v2` as kube-openapi does: JSON, or gnostic's protobuf `Document` (what kubectl
 * asks for), negotiated over `Accept` in clause order; one `ETag` (the SHA-512 of the JSON) for
 * both (304 to a matching `If-None-Match`), `Vary: Accept`, and an empty 406 when nothing matches. Both forms are built on first use.
 */
export function openApiV2Responder(build: () => Readonly<Record<string, unknown>>): (req: ApiRequest) => BodyResponse {
  let json: string | undefined;
  let etag = '';
  let protobuf: Buffer | undefined;
  return (req) => {
    const form = openApiV2Form(req.headers.accept);
    const headers: ResponseHeaders = { vary: 'Accept' };
    if (!form) return { kind: 'body', status: 406, headers, body: '' };
    if (json === undefined) {
      json = JSON.stringify(build());
      etag = `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
    }
    // A client holding the current document revalidates for nothing (kube-openapi answers 304).
    if (req.headers['if-none-match'] === etag) {
      return { kind: 'body', status: 304, headers: { etag, vary: 'Accept' }, body: '' };
    }
    if (form === 'json') {
      return {
        kind: 'body',
        status: 200,
        headers: { 'content-type': 'application/json', etag, vary: 'Accept' },
        body: json,
      };
    }
    protobuf ??= Buffer.from(encodeOpenApiV2(JSON.parse(json)));
    return {
      kind: 'body',
      status: 200,
      headers: { 'content-type': OPENAPI_V2_PROTOBUF_MEDIA_TYPE, etag, vary: 'Accept' },
      body: protobuf,
    };
  };
}

import { isValidPortNum } from '../core/value-formats.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../meta/name-validation.js';
import { childPath, indexPath } from '../schema/field-path.js';
import type { InternalConversion } from './crd-internal.js';
import type { ServiceReference } from './crd-types.js';

/** ConversionReview versions this server reads and writes. */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

const FORM = '; desired format: https://host[/path]';

/** kube's `validateCustomResourceConversion`, paths in the internal form (`spec.conversion.webhookClientConfig`). */
export function validateConversion(
  conversion: InternalConversion | undefined,
  o: { readonly path: string; readonly requireRecognizedVersion: boolean; readonly allowInvalidCABundle: boolean },
): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const at = (name: string) => childPath(o.path, name);
  if (conversion.strategy === '') errs.push(fieldErrors.required(at('strategy')));
  else if (conversion.strategy !== 'None' && conversion.strategy !== 'Webhook') {
    errs.push(fieldErrors.notSupported(at('strategy'), conversion.strategy, ['None', 'Webhook']));
  }
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    const ccPath = at('webhookClientConfig');
    if (!cc) errs.push(fieldErrors.required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const hasUrl = typeof cc.url === 'string';
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasUrl === hasService) errs.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
      else if (hasUrl) errs.push(...validateWebhookUrl(childPath(ccPath, 'url'), cc.url as string));
      else errs.push(...validateWebhookService(childPath(ccPath, 'service'), cc.service as ServiceReference));
      if (cc.caBundle && !o.allowInvalidCABundle)
        errs.push(...validateCaBundle(childPath(ccPath, 'caBundle'), cc.caBundle));
    }
    errs.push(
      ...validateReviewVersions(
        conversion.conversionReviewVersions ?? [],
        o.requireRecognizedVersion,
        at('conversionReviewVersions'),
      ),
    );
  } else {
    if (cc)
      errs.push(
        fieldErrors.forbidden(at('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'),
      );
    if ((conversion.conversionReviewVersions ?? []).length > 0) {
      errs.push(
        fieldErrors.forbidden(at('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'),
      );
    }
  }
  return errs;
}

function validateReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(indexPath(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(indexPath(path, i), v, msg));
    if (CONVERSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) {
    const shown = `[]string{${versions.map((v) => JSON.stringify(v)).join(', ')}}`;
    errs.push(invalidShown(path, shown, `must include at least one of ${CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/** The parts of a URL as Go's `url.Parse` splits them, or Go's error. */
function parseGoUrl(
  raw: string,
): { scheme: string; user?: string; host: string; query: string; fragment: string } | { error: string } {
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { error: `parse ${JSON.stringify(raw)}: net/url: invalid control character in URL` };
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1].toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (rest.startsWith(':')) {
    return { error: `parse ${JSON.stringify(raw)}: missing protocol scheme` };
  }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
  } else if (!scheme && rest.split('/')[0].includes(':')) {
    return { error: `parse ${JSON.stringify(raw)}: first path segment in URL cannot contain colon` };
  }
  return { scheme, user, host, query, fragment };
}

function validateWebhookUrl(path: string, raw: string): FieldError[] {
  const u = parseGoUrl(raw);
  if ('error' in u) return [fieldErrors.required(path, `url must be a valid URL: ${u.error}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https')
    errs.push(fieldErrors.invalid(path, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(fieldErrors.invalid(path, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined)
    errs.push(fieldErrors.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(fieldErrors.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') errs.push(fieldErrors.invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

function validateWebhookService(path: string, svc: ServiceReference): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(fieldErrors.required(childPath(path, 'name'), 'service name is required'));
  if (!svc.namespace) errs.push(fieldErrors.required(childPath(path, 'namespace'), 'service namespace is required'));
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0)
    errs.push(fieldErrors.invalid(childPath(path, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = svc.path;
  if (typeof urlPath !== 'string' || urlPath === '/' || urlPath === '') return errs;
  const at = childPath(path, 'path');
  if (urlPath === '//') return [...errs, fieldErrors.invalid(at, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldErrors.invalid(at, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(fieldErrors.invalid(at, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step))
      errs.push(fieldErrors.invalid(at, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** Whether a CA bundle (base64 of PEM) holds certificates (an empty one means the system roots). */
export function caBundleValid(bundle: string | undefined): boolean {
  if (!bundle) return true;
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  return blocks.length > 0 && blocks.every((b) => /^[A-Za-z0-9+/=\s]+$/.test(b[1]));
}

function validateCaBundle(path: string, bundle: string): FieldError[] {
  if (caBundleValid(bundle)) return [];
  return [fieldErrors.invalid(path, bundle, 'unable to load root certificates: unable to parse bytes as PEM block')];
}

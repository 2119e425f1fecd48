import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ApiDomain } from '../../apis/api-domain.js';
import { type FieldError, fieldErrors, formatFieldError, notSupportedShown } from '../../apis/meta/field-error.js';
import { isDNS1123Subdomain } from '../../apis/meta/name-validation.js';
import { formatGoDurationNanos } from '../../util/go-duration.js';
import type { AuthorizationMetrics } from '../authorization-metrics.js';
import { compileMatchConditions, type MatchConditionCompiler } from '../webhook/match-conditions.js';
import type { WebhookMatcher } from '../webhook/webhook-authorizer.js';
import {
  type AuthorizationConfiguration,
  configFileConnectionType,
  configFileField,
  IN_CLUSTER_CONNECTION_TYPE,
  type WebhookConfiguration,
} from './types.js';

/** The authorizer types kube-apiserver knows (`--authorization-mode` values); only `Webhook` may repeat. */
export const AUTHORIZER_TYPES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const REPEATABLE_TYPES = new Set(['Webhook']);
/** The authorizers the server builds once and keeps across reloads. */
const KEPT_TYPES = new Set(['Node', 'RBAC', 'ABAC']);
const MAX_TIMEOUT_MS = 30_000;

export interface AuthorizationConfigValidationContext {
  readonly domain: ApiDomain;
  readonly compiler: MatchConditionCompiler;
  readonly metrics?: AuthorizationMetrics;
  /**
   * On reload, the types the server started with: its non-webhook types must stay, and no
   * authorizer the server keeps (Node, RBAC, ABAC) may be added. Absent at start-up.
   */
  readonly initialTypes?: ReadonlySet<string>;
  /** `fs.statSync` (tests may replace it). */
  readonly stat?: (path: string) => { isFile(): boolean };
}

/** A configuration's problems, and the compiled match conditions of each authorizer (by index). */
export interface ValidatedAuthorizationConfiguration {
  /** kube's texts: `<field path>: <message>` for field errors, then kube-apiserver's own checks. */
  readonly errors: readonly string[];
  readonly matchers: readonly (WebhookMatcher | undefined)[];
}

const goDuration = (ms: number): string => formatGoDurationNanos(BigInt(Math.round(ms * 1e6)));

/** Go's text of a failed `os.Stat`: `stat <path>: no such file or directory`. */
function statErrorText(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    ENOTDIR: 'not a directory',
  };
  return `stat ${path}: ${(code && reasons[code]) ?? (e instanceof Error ? e.message : String(e))}`;
}

/** kube's `ValidateWebhookConfiguration`, at `path` (kube's: the authorizer's own path, without `.webhook`). */
function validateWebhook(
  w: WebhookConfiguration,
  path: string,
  name: string,
  ctx: AuthorizationConfigValidationContext,
): { errors: FieldError[]; matcher: WebhookMatcher | undefined } {
  const errors: FieldError[] = [];
  if (w.timeoutMs === 0) errors.push(fieldErrors.required(`${path}.timeout`));
  else if (w.timeoutMs > MAX_TIMEOUT_MS || w.timeoutMs < 0) {
    errors.push(fieldErrors.invalid(`${path}.timeout`, goDuration(w.timeoutMs), 'must be > 0s and <= 30s'));
  }
  if (w.authorizedTTLMs < 0) {
    errors.push(fieldErrors.invalid(`${path}.authorizedTTL`, goDuration(w.authorizedTTLMs), 'must be > 0s'));
  }
  if (w.unauthorizedTTLMs < 0) {
    errors.push(fieldErrors.invalid(`${path}.unauthorizedTTL`, goDuration(w.unauthorizedTTLMs), 'must be > 0s'));
  }
  const sarVersion = w.subjectAccessReviewVersion;
  if (sarVersion === '') errors.push(fieldErrors.required(`${path}.subjectAccessReviewVersion`));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1') {
    errors.push(fieldErrors.notSupported(`${path}.subjectAccessReviewVersion`, sarVersion, ['v1', 'v1beta1']));
  }
  const matchVersion = w.matchConditionSubjectAccessReviewVersion;
  if (matchVersion === '') {
    if (w.matchConditions.length > 0) {
      errors.push(
        fieldErrors.required(
          `${path}.matchConditionSubjectAccessReviewVersion`,
          'required if match conditions are specified',
        ),
      );
    }
  } else if (matchVersion !== 'v1') {
    errors.push(fieldErrors.notSupported(`${path}.matchConditionSubjectAccessReviewVersion`, matchVersion, ['v1']));
  }
  if (w.failurePolicy === '') errors.push(fieldErrors.required(`${path}.failurePolicy`));
  else if (w.failurePolicy !== 'NoOpinion' && w.failurePolicy !== 'Deny') {
    errors.push(fieldErrors.notSupported(`${path}.failurePolicy`, w.failurePolicy, ['NoOpinion', 'Deny']));
  }
  const fileType = configFileConnectionType(ctx.domain);
  const fileField = `${path}.connectionInfo.${configFileField(ctx.domain)}`;
  const { type, configFile } = w.connectionInfo;
  if (type === '') errors.push(fieldErrors.required(`${path}.connectionInfo.type`));
  else if (type === IN_CLUSTER_CONNECTION_TYPE) {
    if (configFile !== undefined) {
      errors.push(fieldErrors.invalid(fileField, configFile, `can only be set when type=${fileType}`));
    }
    errors.push(
      fieldErrors.forbidden(
        `${path}.connectionInfo.type`,
        `${IN_CLUSTER_CONNECTION_TYPE} is not allowed for the API server`,
      ),
    );
  } else if (type === fileType) {
    if (configFile === undefined || configFile === '') errors.push(fieldErrors.required(fileField));
    else if (!isAbsolute(configFile))
      errors.push(fieldErrors.invalid(fileField, configFile, 'must be an absolute path'));
    else {
      try {
        if (!(ctx.stat ?? statSync)(configFile).isFile()) {
          errors.push(fieldErrors.invalid(fileField, configFile, 'must be a regular file'));
        }
      } catch (e) {
        errors.push(fieldErrors.invalid(fileField, configFile, `error loading file: ${statErrorText(configFile, e)}`));
      }
    }
  } else {
    // Go's %#v of the struct; the file is shown by value rather than by pointer address.
    const file = configFile === undefined ? '(*string)(nil)' : JSON.stringify(configFile);
    const shown = `apiserver.WebhookConnectionInfo{Type:${JSON.stringify(type)}, ${fileType}:${file}}`;
    errors.push(notSupportedShown(`${path}.connectionInfo.type`, shown, [IN_CLUSTER_CONNECTION_TYPE, fileType]));
  }
  const compiled = compileMatchConditions(
    w.matchConditions.map((m) => m.expression),
    ctx.compiler,
    { path, authorizerType: 'Webhook', authorizerName: name, metrics: ctx.metrics },
  );
  errors.push(...compiled.errors);
  return { errors, matcher: compiled.matcher };
}

/**
 * Validates an authorization configuration as kube-apiserver v1.32 does, listing every problem:
 * the field errors of `ValidateAuthorizationConfiguration` (at least one authorizer; known types,
 * only `Webhook` repeated; names present, unique DNS-1123 subdomains; webhook settings; match
 * conditions compiled), then kube-apiserver's own rules: a non-webhook authorizer is named after
 * its type in lower case, and on reload the server's types are all present and none it keeps
 * (Node, RBAC, ABAC) is added (reordering is allowed).
 */
export function validateAuthorizationConfiguration(
  config: AuthorizationConfiguration,
  ctx: AuthorizationConfigValidationContext,
): ValidatedAuthorizationConfiguration {
  const fieldErrs: FieldError[] = [];
  const matchers: (WebhookMatcher | undefined)[] = [];
  if (config.authorizers.length === 0) {
    fieldErrs.push(fieldErrors.required('authorizers', 'at least one authorization mode must be defined'));
  }
  const known = [...AUTHORIZER_TYPES].sort();
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const other: string[] = [];
  config.authorizers.forEach((a, i) => {
    const path = `authorizers[${i}]`;
    matchers.push(undefined);
    if (a.type === '') {
      fieldErrs.push(fieldErrors.required(`${path}.type`));
      return;
    }
    if (!AUTHORIZER_TYPES.includes(a.type)) {
      fieldErrs.push(fieldErrors.notSupported(`${path}.type`, a.type, known));
      return;
    }
    if (seenTypes.has(a.type) && !REPEATABLE_TYPES.has(a.type)) {
      fieldErrs.push(fieldErrors.duplicate(`${path}.type`, a.type));
      return;
    }
    seenTypes.add(a.type);
    if (a.name === '') fieldErrs.push(fieldErrors.required(`${path}.name`));
    else if (seenNames.has(a.name)) fieldErrs.push(fieldErrors.duplicate(`${path}.name`, a.name));
    else {
      const problems = isDNS1123Subdomain(a.name);
      if (problems.length > 0) {
        fieldErrs.push(
          fieldErrors.invalid(`${path}.name`, a.name, `authorizer name is invalid: ${problems.join(', ')}`),
        );
      }
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (a.webhook === undefined) {
        fieldErrs.push(fieldErrors.required(`${path}.webhook`, 'required when type=Webhook'));
        return;
      }
      const w = validateWebhook(a.webhook, path, a.name, ctx);
      fieldErrs.push(...w.errors);
      matchers[i] = w.matcher;
      return;
    }
    if (a.webhook !== undefined) {
      fieldErrs.push(fieldErrors.invalid(`${path}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
    }
    const expected = a.type.toLowerCase();
    if (a.name !== '' && a.name !== expected) {
      other.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
    }
  });
  const initial = ctx.initialTypes;
  if (initial !== undefined) {
    const missing = [...initial].filter((t) => t !== 'Webhook' && !seenTypes.has(t)).sort();
    if (missing.length > 0) other.push(`missing required types: [${missing.join(' ')}]`);
    for (const t of seenTypes) {
      if (KEPT_TYPES.has(t) && !initial.has(t)) {
        other.push(`authorizer type ${t} is not allowed if it was not enabled at initial server startup`);
      }
    }
  }
  return { errors: [...fieldErrs.map(formatFieldError), ...other], matchers };
}

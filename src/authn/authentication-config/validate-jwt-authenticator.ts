import { X509Certificate } from 'node:crypto';
import type { ApiDomain } from '../../apis/api-domain.js';
import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import { isDNS1123Subdomain, regexError } from '../../apis/meta/name-validation.js';
import { forEachNode } from '../../cel/ast-walk.js';
import type { EngineNode } from '../../cel/engine-internals.js';
import type { CelProgram } from '../../cel/program.js';
import {
  type AuthenticationCelCompiler,
  type AuthenticationCelReturn,
  CelExpressionInvalid,
} from './authentication-cel-compiler.js';
import type { CompiledExtra, CompiledJwtAuthenticator, CompiledRule } from './compiled-jwt-authenticator.js';
import { parseGoUrl } from './go-url.js';
import type { IssuerConfig, JwtAuthenticatorConfig, PrefixedClaimOrExpression } from './types.js';

/** What validating a JWT authenticator needs. */
export interface JwtValidationContext {
  readonly compiler: AuthenticationCelCompiler;
  /** Issuers no JWT authenticator may claim (the service-account issuers). */
  readonly disallowedIssuers: readonly string[];
  readonly domain: ApiDomain;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FMT}$`);

/** Joins a field path (`''` is the root, as kube's nil path). */
function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

interface State {
  readonly errors: FieldError[];
  usesEmailClaim: boolean;
  usesEmailVerifiedClaim: boolean;
}

/**
 * Validates one JWT authenticator as kube-apiserver does (issuer, claim validation rules, claim
 * mappings, user validation rules, in that order) and compiles its expressions. `path` prefixes
 * every field (`jwt[0]`), or nothing for an authenticator built from the `--oidc-*` flags.
 * Every problem is reported; `compiled` is usable only when `errors` is empty.
 */
export function validateJwtAuthenticator(
  a: JwtAuthenticatorConfig,
  path: string,
  ctx: JwtValidationContext,
): { readonly errors: FieldError[]; readonly compiled: CompiledJwtAuthenticator } {
  const state: State = { errors: [], usesEmailClaim: false, usesEmailVerifiedClaim: false };
  validateIssuer(a.issuer, child(path, 'issuer'), ctx, state.errors);
  const claimValidationRules = validateClaimValidationRules(a, child(path, 'claimValidationRules'), ctx, state);
  const mappings = validateClaimMappings(a, child(path, 'claimMappings'), ctx, state);
  const userValidationRules = validateUserValidationRules(a, child(path, 'userValidationRules'), ctx, state);
  return {
    errors: state.errors,
    compiled: { config: a, ...mappings, claimValidationRules, userValidationRules },
  };
}

function validateIssuer(issuer: IssuerConfig, path: string, ctx: JwtValidationContext, errs: FieldError[]): void {
  const urlPath = child(path, 'url');
  if (issuer.url === '') errs.push(fieldErrors.required(urlPath, 'URL is required'));
  else validateUrl(issuer.url, ctx.disallowedIssuers, urlPath, errs);

  if (issuer.discoveryURL !== '') {
    const discoveryPath = child(path, 'discoveryURL');
    if (issuer.url !== '' && trimSlashes(issuer.url) === trimSlashes(issuer.discoveryURL)) {
      errs.push(fieldErrors.invalid(discoveryPath, issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    validateUrl(issuer.discoveryURL, [], discoveryPath, errs);
  }

  const audiencesPath = child(path, 'audiences');
  const policyPath = child(path, 'audienceMatchPolicy');
  if (issuer.audiences.length === 0) {
    errs.push(fieldErrors.required(audiencesPath, `at least one ${audiencesPath} is required`));
  } else {
    const seen = new Set<string>();
    issuer.audiences.forEach((audience, i) => {
      const p = `${audiencesPath}[${i}]`;
      if (audience === '') errs.push(fieldErrors.required(p, "audience can't be empty"));
      if (seen.has(audience)) errs.push(fieldErrors.duplicate(p, audience));
      seen.add(audience);
    });
    const policy = issuer.audienceMatchPolicy;
    if (issuer.audiences.length > 1 && policy !== 'MatchAny') {
      errs.push(fieldErrors.invalid(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
    }
    if (issuer.audiences.length === 1 && policy !== '' && policy !== 'MatchAny') {
      errs.push(
        fieldErrors.invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'),
      );
    }
  }

  if (issuer.certificateAuthority !== '') {
    const problem = certificateAuthorityProblem(issuer.certificateAuthority);
    if (problem) errs.push(fieldErrors.invalid(child(path, 'certificateAuthority'), '<omitted>', problem));
  }
}

function trimSlashes(s: string): string {
  return s.replace(/\/+$/, '');
}

function validateUrl(url: string, disallowed: readonly string[], path: string, errs: FieldError[]): void {
  if (disallowed.includes(url)) {
    const list = [...new Set(disallowed)].sort().join(' ');
    errs.push(fieldErrors.invalid(path, url, `URL must not overlap with disallowed issuers: [${list}]`));
  }
  const parts = parseGoUrl(url);
  if ('error' in parts) {
    errs.push(fieldErrors.invalid(path, url, parts.error));
    return;
  }
  if (parts.scheme !== 'https') errs.push(fieldErrors.invalid(path, url, 'URL scheme must be https'));
  if (parts.hasUser) errs.push(fieldErrors.invalid(path, url, 'URL must not contain a username or password'));
  if (parts.rawQuery !== '') errs.push(fieldErrors.invalid(path, url, 'URL must not contain a query'));
  if (parts.fragment !== '') errs.push(fieldErrors.invalid(path, url, 'URL must not contain a fragment'));
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** client-go's `NewPoolFromBytes`: at least one certificate, every CERTIFICATE block parsable. */
function certificateAuthorityProblem(pem: string): string | undefined {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return 'data does not contain any valid RSA or ECDSA certificates';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (e) {
      return `x509: malformed certificate: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return undefined;
}

function compileAt(
  ctx: JwtValidationContext,
  expression: string,
  path: string,
  errs: FieldError[],
  kind: { readonly variable: 'claims' | 'user'; readonly returns: AuthenticationCelReturn },
): CelProgram | undefined {
  try {
    return kind.variable === 'user'
      ? ctx.compiler.compileUser(expression)
      : ctx.compiler.compileClaims(expression, kind.returns);
  } catch (e) {
    if (!(e instanceof CelExpressionInvalid)) throw e;
    errs.push(fieldErrors.invalid(path, expression, e.detail));
    return undefined;
  }
}

function validateClaimValidationRules(
  a: JwtAuthenticatorConfig,
  path: string,
  ctx: JwtValidationContext,
  state: State,
): CompiledRule[] {
  const errs = state.errors;
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  const compiled: CompiledRule[] = [];
  a.claimValidationRules.forEach((rule, i) => {
    const p = `${path}[${i}]`;
    if (rule.claim !== '' && rule.expression !== '') {
      errs.push(fieldErrors.invalid(p, rule.claim, "claim and expression can't both be set"));
    } else if (rule.claim === '' && rule.expression === '') {
      errs.push(fieldErrors.required(p, 'claim or expression is required'));
    } else if (rule.claim !== '') {
      if (rule.message !== '') {
        errs.push(fieldErrors.invalid(child(p, 'message'), rule.message, "message can't be set when claim is set"));
      }
      if (seenClaims.has(rule.claim)) errs.push(fieldErrors.duplicate(child(p, 'claim'), rule.claim));
      seenClaims.add(rule.claim);
    } else {
      if (rule.requiredValue !== '') {
        const detail = "requiredValue can't be set when expression is set";
        errs.push(fieldErrors.invalid(child(p, 'requiredValue'), rule.requiredValue, detail));
      }
      if (seenExpressions.has(rule.expression)) {
        errs.push(fieldErrors.duplicate(child(p, 'expression'), rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const program = compileAt(ctx, rule.expression, child(p, 'expression'), errs, {
        variable: 'claims',
        returns: 'bool',
      });
      if (program) compiled.push({ expression: rule.expression, program, message: rule.message });
    }
  });
  if (compiled.some((r) => selectsClaim(r.program, 'email_verified'))) state.usesEmailVerifiedClaim = true;
  return compiled;
}

function validatePrefixedMapping(
  m: PrefixedClaimOrExpression,
  path: string,
  required: boolean,
  ctx: JwtValidationContext,
  errs: FieldError[],
): CelProgram | undefined {
  if (m.expression !== '' && m.claim !== '') {
    errs.push(fieldErrors.invalid(path, '', "claim and expression can't both be set"));
  } else if (m.expression === '' && m.claim === '' && required) {
    errs.push(fieldErrors.required(path, 'claim or expression is required'));
  } else if (m.expression !== '') {
    if (m.prefix !== undefined) {
      errs.push(fieldErrors.invalid(child(path, 'prefix'), m.prefix, "prefix can't be set when expression is set"));
    }
    return compileAt(ctx, m.expression, child(path, 'expression'), errs, { variable: 'claims', returns: 'any' });
  } else if (m.claim !== '' && m.prefix === undefined) {
    const detail = 'prefix is required when claim is set. It can be set to an empty string to disable prefixing';
    errs.push(fieldErrors.required(child(path, 'prefix'), detail));
  }
  return undefined;
}

function validateClaimMappings(
  a: JwtAuthenticatorConfig,
  path: string,
  ctx: JwtValidationContext,
  state: State,
): {
  username: CelProgram | undefined;
  groups: CelProgram | undefined;
  uid: CelProgram | undefined;
  extra: CompiledExtra[];
} {
  const errs = state.errors;
  const m = a.claimMappings;
  const usernameErrors: FieldError[] = [];
  const username = validatePrefixedMapping(m.username, child(path, 'username'), true, ctx, usernameErrors);
  errs.push(...usernameErrors);
  if (username && usernameErrors.length === 0) {
    state.usesEmailClaim ||= selectsClaim(username, 'email');
    state.usesEmailVerifiedClaim ||= selectsClaim(username, 'email_verified');
  }
  const groupErrors: FieldError[] = [];
  const groups = validatePrefixedMapping(m.groups, child(path, 'groups'), false, ctx, groupErrors);
  errs.push(...groupErrors);

  let uid: CelProgram | undefined;
  const uidPath = child(path, 'uid');
  if (m.uid.claim !== '' && m.uid.expression !== '') {
    errs.push(fieldErrors.invalid(uidPath, '', "claim and expression can't both be set"));
  } else if (m.uid.expression !== '') {
    uid = compileAt(ctx, m.uid.expression, child(uidPath, 'expression'), errs, { variable: 'claims', returns: 'any' });
  }

  const extra: CompiledExtra[] = [];
  const seenKeys = new Set<string>();
  m.extra.forEach((mapping, i) => {
    const p = `${path}.extra[${i}]`;
    const keyPath = child(p, 'key');
    errs.push(...domainPrefixedPathErrors(keyPath, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase())
      errs.push(fieldErrors.invalid(keyPath, mapping.key, 'key must be lowercase'));
    const reserved = reservedDomains(ctx.domain);
    if (reserved.isReserved(mapping.key)) errs.push(fieldErrors.invalid(keyPath, mapping.key, reserved.message));
    if (seenKeys.has(mapping.key)) {
      errs.push(fieldErrors.duplicate(keyPath, mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (mapping.valueExpression === '') {
      errs.push(fieldErrors.required(child(p, 'valueExpression'), 'valueExpression is required'));
      return;
    }
    const program = compileAt(ctx, mapping.valueExpression, child(p, 'valueExpression'), errs, {
      variable: 'claims',
      returns: 'any',
    });
    if (program) extra.push({ key: mapping.key, expression: mapping.valueExpression, program });
  });
  if (extra.some((e) => selectsClaim(e.program, 'email_verified'))) state.usesEmailVerifiedClaim = true;

  if (state.usesEmailClaim && !state.usesEmailVerifiedClaim) {
    errs.push(
      fieldErrors.invalid(
        child(child(path, 'username'), 'expression'),
        m.username.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return { username, groups, uid, extra };
}

function validateUserValidationRules(
  a: JwtAuthenticatorConfig,
  path: string,
  ctx: JwtValidationContext,
  state: State,
): CompiledRule[] {
  const errs = state.errors;
  const seen = new Set<string>();
  const compiled: CompiledRule[] = [];
  a.userValidationRules.forEach((rule, i) => {
    const p = child(`${path}[${i}]`, 'expression');
    if (rule.expression === '') {
      errs.push(fieldErrors.required(p, 'expression is required'));
      return;
    }
    if (seen.has(rule.expression)) {
      errs.push(fieldErrors.duplicate(p, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const program = compileAt(ctx, rule.expression, p, errs, { variable: 'user', returns: 'bool' });
    if (program) compiled.push({ expression: rule.expression, program, message: rule.message });
  });
  return compiled;
}

/** apimachinery's `IsDomainPrefixedPath`: `<DNS subdomain>/<HTTP path>`. */
function domainPrefixedPathErrors(path: string, value: string): FieldError[] {
  if (value === '') return [fieldErrors.required(path, '')];
  const slash = value.indexOf('/');
  const host = slash === -1 ? value : value.slice(0, slash);
  const rest = slash === -1 ? '' : value.slice(slash + 1);
  if (slash === -1 || host === '' || rest === '') {
    return [fieldErrors.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => fieldErrors.invalid(path, host, m));
  if (!HTTP_PATH.test(rest)) errs.push(fieldErrors.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/**
 * The domains reserved for the server's own extra keys: the API domain and the domain of its
 * label keys, with their subdomains (kube: `k8s.io, kubernetes.io`).
 */
function reservedDomains(domain: ApiDomain): { isReserved(key: string): boolean; readonly message: string } {
  const keyDomain = domain.key('', 'x').split('/')[0] as string;
  const names = [...new Set([domain.name, keyDomain])];
  const product = domain.namespaceFinalizer.charAt(0).toUpperCase() + domain.namespaceFinalizer.slice(1);
  const which = names.length === 1 ? 'and its subdomains are' : 'and their subdomains are';
  return {
    isReserved(key) {
      const slash = key.indexOf('/');
      if (slash === -1) return false;
      const prefix = key.slice(0, slash);
      return names.some((n) => prefix === n || prefix.endsWith(`.${n}`));
    },
    message: `${names.join(', ')} ${which} reserved for ${product} use`,
  };
}

/** Whether the expression selects `claims.<field>` (or `claims.?<field>`), as kube's `hasSelectExp`. */
export function selectsClaim(program: CelProgram, field: string): boolean {
  let found = false;
  forEachNode(program.ast, (node: EngineNode) => {
    if (found || (node.op !== '.' && node.op !== '.?')) return;
    const [operand, name] = node.args as [EngineNode, unknown];
    if (name === field && operand?.op === 'id' && operand.args === 'claims') found = true;
  });
  return found;
}

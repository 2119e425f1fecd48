import type { UserInfo } from '../../apis/request/user-info.js';
import { type CelProgram, evaluate } from '../../cel/program.js';
import type { CompiledJwtAuthenticator, CompiledRule } from '../authentication-config/compiled-jwt-authenticator.js';

/** kube-apiserver's prefix of a JWT's credential id (`JTI=<jti>`). */
const JTI_CREDENTIAL_PREFIX = 'JTI=';

/** A token's claims do not map to a valid user; `message` is kube-apiserver's text. */
export class ClaimMappingError extends Error {
  override readonly name = 'ClaimMappingError';
}

type Claims = Readonly<Record<string, unknown>>;

function run(program: CelProgram, variable: 'claims' | 'user', value: unknown): unknown {
  try {
    return evaluate(program, { [variable]: value });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ClaimMappingError(`expression '${program.expression}' resulted in error: ${why}`);
  }
}

/** kube's `convertCELValueToStringList`: a string (empty: none), a list of strings (empties dropped), or null. */
function stringList(value: unknown): string[] {
  if (value === null) return [];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== 'string') throw new ClaimMappingError('expression must return a string or a list of strings');
      if (v !== '') out.push(v);
    }
    return out;
  }
  throw new ClaimMappingError('expression must return a string or a list of strings');
}

/** Go's JSON decoding of a claim into a string: `claim not present` or the type mismatch. */
function stringClaim(claims: Claims, name: string): string {
  if (!(name in claims)) throw new ClaimMappingError('claim not present');
  const v = claims[name];
  if (v === null) return '';
  if (typeof v !== 'string')
    throw new ClaimMappingError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'object';
}

function wrap<T>(prefix: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ClaimMappingError) throw new ClaimMappingError(`${prefix}${e.message}`);
    throw e;
  }
}

function username(a: CompiledJwtAuthenticator, claims: Claims): string {
  if (a.username !== undefined) {
    const program = a.username;
    const value = wrap('oidc: error evaluating username claim expression: ', () => run(program, 'claims', claims));
    if (typeof value !== 'string') {
      throw new ClaimMappingError(
        'oidc: error evaluating username claim expression: username claim expression must return a string',
      );
    }
    if (value === '') throw new ClaimMappingError('oidc: empty username via CEL expression is not allowed');
    return value;
  }
  const { claim, prefix } = a.config.claimMappings.username;
  const name = wrap(`oidc: parse username claims ${JSON.stringify(claim)}: `, () => stringClaim(claims, claim));
  if (claim === 'email' && 'email_verified' in claims) {
    const verified = claims.email_verified;
    if (typeof verified !== 'boolean') {
      throw new ClaimMappingError(
        `oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonKind(verified)} into Go value of type bool`,
      );
    }
    if (!verified) throw new ClaimMappingError('oidc: email not verified');
  }
  return prefix ? prefix + name : name;
}

function groups(a: CompiledJwtAuthenticator, claims: Claims): string[] {
  const { claim, prefix } = a.config.claimMappings.groups;
  if (claim !== '' && claim in claims) {
    const v = claims[claim];
    let list: string[];
    if (typeof v === 'string') list = [v];
    else if (v === null) list = [];
    else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) list = [...(v as string[])];
    else {
      throw new ClaimMappingError(
        `oidc: parse groups claim ${JSON.stringify(claim)}: json: cannot unmarshal ${jsonKind(v)} into Go value of type []string`,
      );
    }
    return prefix ? list.map((g) => prefix + g) : list;
  }
  if (a.groups === undefined) return [];
  const program = a.groups;
  return wrap('oidc: error evaluating group claim expression: ', () => stringList(run(program, 'claims', claims)));
}

function uid(a: CompiledJwtAuthenticator, claims: Claims): string {
  const { claim } = a.config.claimMappings.uid;
  if (claim !== '') return wrap(`oidc: parse uid claim ${JSON.stringify(claim)}: `, () => stringClaim(claims, claim));
  if (a.uid === undefined) return '';
  const program = a.uid;
  const value = wrap('oidc: error evaluating uid claim expression: ', () => run(program, 'claims', claims));
  if (typeof value !== 'string') {
    throw new ClaimMappingError(
      'oidc: error evaluating uid claim expression: uid claim expression must return a string',
    );
  }
  return value;
}

function extra(a: CompiledJwtAuthenticator, claims: Claims, credentialIdKey: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const jti = claims.jti;
  if (typeof jti === 'string') out[credentialIdKey] = [`${JTI_CREDENTIAL_PREFIX}${jti}`];
  for (const e of a.extra) {
    const value = run(e.program, 'claims', claims);
    const values = wrap(`oidc: error evaluating extra claim expression: ${e.expression}: `, () => stringList(value));
    if (values.length > 0) out[e.key] = values;
  }
  return out;
}

function checkRules(rules: readonly CompiledRule[], variable: 'claims' | 'user', value: unknown, prefix: string): void {
  for (const rule of rules) {
    const result = wrap(prefix, () => run(rule.program, variable, value));
    if (typeof result !== 'boolean')
      throw new ClaimMappingError(`${prefix}validation expression must return a boolean`);
    if (!result)
      throw new ClaimMappingError(`${prefix}validation expression '${rule.expression}' failed: ${rule.message}`);
  }
}

/**
 * The user a verified token's claims describe, in kube-apiserver's order: username, groups, uid,
 * extra (with the credential id from `jti`), then the required claims, the claim validation
 * rules and the user validation rules.
 * @throws ClaimMappingError with kube's text.
 */
export function userFromClaims(a: CompiledJwtAuthenticator, claims: Claims, credentialIdKey: string): UserInfo {
  const name = username(a, claims);
  const groupList = groups(a, claims);
  const uidValue = uid(a, claims);
  const extraMap = extra(a, claims, credentialIdKey);
  for (const rule of a.config.claimValidationRules) {
    if (rule.claim === '') continue;
    if (!(rule.claim in claims))
      throw new ClaimMappingError(`oidc: required claim ${rule.claim} not present in ID token`);
    const value = wrap(`oidc: parse claim ${rule.claim}: `, () => stringClaim(claims, rule.claim));
    if (value !== rule.requiredValue) {
      throw new ClaimMappingError(
        `oidc: required claim ${rule.claim} value does not match. Got = ${value}, want = ${rule.requiredValue}`,
      );
    }
  }
  checkRules(a.claimValidationRules, 'claims', claims, 'oidc: error evaluating claim validation expression: ');
  const user: UserInfo = {
    name,
    groups: groupList,
    ...(uidValue !== '' ? { uid: uidValue } : {}),
    ...(Object.keys(extraMap).length > 0 ? { extra: extraMap } : {}),
  };
  if (a.userValidationRules.length > 0) {
    const userValue = { username: name, uid: uidValue, groups: groupList, extra: extraMap };
    checkRules(a.userValidationRules, 'user', userValue, 'oidc: error evaluating user info validation rule: ');
  }
  return user;
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { userFromClaims } from './claim-mapper.js';
import { compileAuthenticator } from './testing/compile-authenticator.js';

const CRED = 'authentication.example/credential-id';
const expr = (expression: string) => ({ claim: '', prefix: undefined, expression });

describe('userFromClaims', () => {
  it('maps claims with prefixes: username, groups (string or list), uid, and the jti credential id', () => {
    const a = compileAuthenticator({
      username: { claim: 'email', prefix: 'p:' },
      groups: { claim: 'groups', prefix: 'g:' },
      uid: { claim: 'oid' },
    });
    assert.deepEqual(userFromClaims(a, { email: 'a@x', groups: ['dev', 'ops'], oid: 'u1', jti: 'j1' }, CRED), {
      name: 'p:a@x',
      groups: ['g:dev', 'g:ops'],
      uid: 'u1',
      extra: { [CRED]: ['JTI=j1'] },
    });
    assert.deepEqual(userFromClaims(a, { email: 'a@x', groups: 'dev', oid: 'u1' }, CRED).groups, ['g:dev']);
    assert.deepEqual(userFromClaims(a, { email: 'a@x', oid: 'u1' }, CRED).groups, []);
  });

  it('maps claims with CEL: username, groups, uid and extra (string or list, empties dropped)', () => {
    const a = compileAuthenticator({
      username: expr("'oidc:' + claims.sub"),
      groups: expr("claims.roles.map(r, 'role:' + r)"),
      uid: expr('claims.sub'),
      extra: [
        { key: 'example.com/tenant', valueExpression: 'claims.tenant' },
        { key: 'example.com/scopes', valueExpression: "claims.scope.split(' ')" },
        { key: 'example.com/none', valueExpression: "''" },
      ],
    });
    assert.deepEqual(userFromClaims(a, { sub: 's', roles: ['a', 'b'], tenant: 't', scope: 'x y' }, CRED), {
      name: 'oidc:s',
      groups: ['role:a', 'role:b'],
      uid: 's',
      extra: { 'example.com/tenant': ['t'], 'example.com/scopes': ['x', 'y'] },
    });
  });

  it('checks email_verified for the email claim', () => {
    const a = compileAuthenticator({ username: { claim: 'email', prefix: '' } });
    assert.equal(userFromClaims(a, { email: 'a@x', email_verified: true }, CRED).name, 'a@x');
    assert.equal(userFromClaims(a, { email: 'a@x' }, CRED).name, 'a@x');
    assert.throws(() => userFromClaims(a, { email: 'a@x', email_verified: false }, CRED), {
      message: 'oidc: email not verified',
    });
    assert.throws(() => userFromClaims(a, { email: 'a@x', email_verified: 'true' }, CRED), {
      message: "oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool",
    });
  });

  const failures: [string, Parameters<typeof compileAuthenticator>[0], Record<string, unknown>, string][] = [
    ['missing username claim', {}, {}, 'oidc: parse username claims "sub": claim not present'],
    [
      'username claim not a string',
      {},
      { sub: 1 },
      'oidc: parse username claims "sub": json: cannot unmarshal number into Go value of type string',
    ],
    ['empty CEL username', { username: expr("''") }, {}, 'oidc: empty username via CEL expression is not allowed'],
    [
      'CEL username not a string',
      { username: expr('claims.n') },
      { n: 1 },
      'oidc: error evaluating username claim expression: username claim expression must return a string',
    ],
    [
      'CEL username errors',
      { username: expr('claims.nope') },
      {},
      "oidc: error evaluating username claim expression: expression 'claims.nope' resulted in error: no such key: nope",
    ],
    [
      'groups claim of another type',
      { groups: { claim: 'g', prefix: '' } },
      { sub: 's', g: 3 },
      'oidc: parse groups claim "g": json: cannot unmarshal number into Go value of type []string',
    ],
    [
      'CEL groups not strings',
      { groups: expr('[1]') },
      { sub: 's' },
      'oidc: error evaluating group claim expression: expression must return a string or a list of strings',
    ],
    ['missing uid claim', { uid: { claim: 'oid' } }, { sub: 's' }, 'oidc: parse uid claim "oid": claim not present'],
    [
      'CEL uid not a string',
      { uid: { expression: '1' } },
      { sub: 's' },
      'oidc: error evaluating uid claim expression: uid claim expression must return a string',
    ],
    [
      'CEL extra not strings',
      { extra: [{ key: 'example.com/x', valueExpression: '{"a": 1}' }] },
      { sub: 's' },
      'oidc: error evaluating extra claim expression: {"a": 1}: expression must return a string or a list of strings',
    ],
    [
      'required claim absent',
      { claimRules: [{ claim: 'hd', requiredValue: 'x' }] },
      { sub: 's' },
      'oidc: required claim hd not present in ID token',
    ],
    [
      'required claim differs',
      { claimRules: [{ claim: 'hd', requiredValue: 'x' }] },
      { sub: 's', hd: 'y' },
      'oidc: required claim hd value does not match. Got = y, want = x',
    ],
    [
      'claim rule false',
      { claimRules: [{ expression: "claims.sub == 'admin'", message: 'only admin' }] },
      { sub: 's' },
      "oidc: error evaluating claim validation expression: validation expression 'claims.sub == 'admin'' failed: only admin",
    ],
    [
      'user rule false',
      { userRules: [{ expression: "user.username.startsWith('x')", message: 'x only' }] },
      { sub: 's' },
      "oidc: error evaluating user info validation rule: validation expression 'user.username.startsWith('x')' failed: x only",
    ],
  ];
  for (const [name, sketch, claims, message] of failures) {
    it(`fails: ${name}`, () =>
      assert.throws(() => userFromClaims(compileAuthenticator(sketch), claims, CRED), { message }));
  }

  it('evaluates user rules over the mapped user, extra included', () => {
    const a = compileAuthenticator({
      uid: { claim: 'oid' },
      extra: [{ key: 'example.com/t', valueExpression: 'claims.t' }],
      userRules: [{ expression: "user.uid == 'u' && user.extra['example.com/t'] == ['t'] && user.groups == []" }],
    });
    assert.equal(userFromClaims(a, { sub: 's', oid: 'u', t: 't' }, CRED).name, 's');
    assert.throws(() => userFromClaims(a, { sub: 's', oid: 'v', t: 't' }, CRED), /failed: $/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { untrustedIssuer } from './untrusted-issuer.js';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const jwt = (payload: unknown) => `${b64({ alg: 'RS256' })}.${b64(payload)}.sig`;

describe('untrustedIssuer', () => {
  const cases: [string, string, string | undefined][] = [
    ['a compact JWT', jwt({ iss: 'https://idp.example' }), 'https://idp.example'],
    ['no iss', jwt({ sub: 'a' }), ''],
    ['the legacy Google issuer', jwt({ iss: 'accounts.google.com' }), 'https://accounts.google.com'],
    ['a JSON serialization', ` {"payload":"x"}`, undefined],
    ['two parts', `${b64({})}.${b64({ iss: 'x' })}`, undefined],
    ['a payload that is not base64url', `a.${b64({ iss: 'x' })}+.c`, undefined],
    ['a payload that is not JSON', `a.${b64('not json')}.c`, undefined],
    ['a payload that is an array', jwt(['iss']), undefined],
    ['an iss that is not a string', jwt({ iss: 7 }), undefined],
    ['an opaque token', 'abcdef.0123456789abcdef', undefined],
  ];
  for (const [name, token, expected] of cases) it(name, () => assert.equal(untrustedIssuer(token), expected));
});

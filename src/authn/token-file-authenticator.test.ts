import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuthenticationConfigError } from './authentication-config-error.js';
import { loadTokenFile, parseTokenFile, staticTokenAuthenticator } from './token-file-authenticator.js';

const ctx = { audiences: [], signal: new AbortController().signal };

function recordingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { info() {}, error() {}, warn: (m: string) => warnings.push(m) } };
}

describe('parseTokenFile', () => {
  const ok: { name: string; text: string; want: { token: string; name: string; uid: string; groups: string[] }[] }[] = [
    {
      name: 'three columns',
      text: 'tok1,alice,1001\n',
      want: [{ token: 'tok1', name: 'alice', uid: '1001', groups: [] }],
    },
    {
      name: 'one quoted group column',
      text: 'tok1,alice,1001,"dev,ops"\n',
      want: [{ token: 'tok1', name: 'alice', uid: '1001', groups: ['dev', 'ops'] }],
    },
    {
      name: 'unquoted groups: only the fourth column counts',
      text: 'tok1,alice,1001,dev,ops\n',
      want: [{ token: 'tok1', name: 'alice', uid: '1001', groups: ['dev'] }],
    },
    { name: 'empty uid', text: 'tok1,alice,\n', want: [{ token: 'tok1', name: 'alice', uid: '', groups: [] }] },
    {
      name: 'several users',
      text: 'a,alice,1\nb,bob,2,"x"\n',
      want: [
        { token: 'a', name: 'alice', uid: '1', groups: [] },
        { token: 'b', name: 'bob', uid: '2', groups: ['x'] },
      ],
    },
  ];
  for (const c of ok) {
    it(`reads ${c.name}`, () => {
      const got = parseTokenFile(c.text, 'tokens.csv').map((e) => ({
        token: e.token,
        name: e.user.name,
        uid: e.user.uid,
        groups: [...e.user.groups],
      }));
      assert.deepEqual(got, c.want);
    });
  }

  const bad: { name: string; text: string; message: string }[] = [
    {
      name: 'a line with two columns',
      text: 'a,alice,1\nb,bob\n',
      message: "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 on line 2",
    },
    { name: 'an empty user name', text: '\n\nc,,3\n', message: "token file 'tokens.csv': empty user name on line 3" },
    {
      name: 'a bare quote',
      text: 'a,al"ice,1\n',
      message: `token file 'tokens.csv': parse error on line 1, column 5: bare " in non-quoted-field`,
    },
  ];
  for (const c of bad) {
    it(`rejects ${c.name}, naming the line and never the token`, () => {
      assert.throws(
        () => parseTokenFile(c.text, 'tokens.csv'),
        (e: unknown) => e instanceof AuthenticationConfigError && e.message === c.message,
      );
    });
  }

  it('skips an empty token with kube-apiserver’s warning', () => {
    const { warnings, logger } = recordingLogger();
    const entries = parseTokenFile(',nobody,0\nt,alice,1\n', 'f.csv', logger);
    assert.deepEqual(
      entries.map((e) => e.user.name),
      ['alice'],
    );
    assert.deepEqual(warnings, ["empty token has been found in token file 'f.csv', record number '1'"]);
  });

  it('warns about a duplicate token and keeps the later record', () => {
    const { warnings, logger } = recordingLogger();
    const entries = parseTokenFile('t,alice,1\nu,bob,2\nt,carol,3\n', 'f.csv', logger);
    assert.deepEqual(entries.map((e) => `${e.token}=${e.user.name}`).sort(), ['t=carol', 'u=bob']);
    assert.deepEqual(warnings, ["duplicate token has been found in token file 'f.csv', record number '3'"]);
  });
});

describe('staticTokenAuthenticator', () => {
  const authn = staticTokenAuthenticator(parseTokenFile('secret-a,alice,1,"dev"\nsecret-b,bob,2\n', 'f'));
  const cases: { token: string; want: string | undefined }[] = [
    { token: 'secret-a', want: 'alice' },
    { token: 'secret-b', want: 'bob' },
    { token: 'secret-', want: undefined },
    { token: 'secret-ab', want: undefined },
    { token: '', want: undefined },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.token)} → ${c.want ?? 'no-opinion'}`, async () => {
      const r = await authn.authenticateToken(c.token, ctx);
      if (c.want === undefined) assert.deepEqual(r, { kind: 'no-opinion' });
      else assert.equal(r.kind === 'user' && r.user.name, c.want);
    });
  }

  it('returns uid and groups', async () => {
    assert.deepEqual(await authn.authenticateToken('secret-a', ctx), {
      kind: 'user',
      user: { name: 'alice', uid: '1', groups: ['dev'] },
    });
  });
});

describe('loadTokenFile', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-tokenfile-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads a file', async () => {
    const path = join(dir, 'ok.csv');
    await writeFile(path, 'tok,alice,1\n');
    const r = await (await loadTokenFile(path)).authenticateToken('tok', ctx);
    assert.equal(r.kind === 'user' && r.user.name, 'alice');
  });

  it('names the flag when the file is missing', async () => {
    await assert.rejects(
      loadTokenFile(join(dir, 'missing.csv')),
      (e: unknown) => e instanceof AuthenticationConfigError && e.message.startsWith('--token-auth-file: ENOENT'),
    );
  });
});

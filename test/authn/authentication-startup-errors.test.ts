import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuthenticationConfigError } from '../../src/authn/authentication-config-error.js';
import type { AuthenticationOptions } from '../../src/authn/authentication-options.js';
import { startServer } from '../../src/server/start-server.js';

describe('authentication start-up errors', () => {
  let dir: string;
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-authn-errors-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Starts a server with `authentication` (and a file holding `text` when given); returns the error. */
  async function startError(
    authentication: AuthenticationOptions,
    text?: string,
    featureGates?: Record<string, boolean>,
  ): Promise<AuthenticationConfigError> {
    const file = join(dir, `authn-${++n}.yaml`);
    if (text !== undefined) await writeFile(file, text);
    const options = text !== undefined ? { ...authentication, authenticationConfigFile: file } : authentication;
    try {
      const server = await startServer({
        dataDir: join(dir, `data-${n}`),
        securePort: 0,
        runControllers: false,
        authorizationModes: ['AlwaysDeny'],
        authentication: options,
        featureGates,
      });
      await server.close();
    } catch (e) {
      assert.ok(e instanceof AuthenticationConfigError, String(e));
      return e;
    }
    assert.fail('the server started');
  }

  const head = 'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\n';

  it('names every invalid field of the file, in kube-apiserver words', async () => {
    const e = await startError(
      {},
      `${head}jwt:\n- issuer:\n    url: http://idp.example\n    audiences: [a, b]\n  claimMappings:\n    username:\n      claim: sub\n    extra:\n    - key: Example.com/x\n      valueExpression: "claims.x +"\n`,
    );
    assert.equal(
      e.message,
      'invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "http://idp.example": URL scheme must be https, ' +
        'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences, ' +
        'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing, ' +
        "jwt[0].claimMappings.extra[0].key: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), " +
        'jwt[0].claimMappings.extra[0].key: Invalid value: "Example.com/x": key must be lowercase, ' +
        'jwt[0].claimMappings.extra[0].valueExpression: Invalid value: "claims.x +": compilation failed: ERROR: <input>:1:11: Syntax error: unexpected token: EOF\n | claims.x +\n | ..........^]',
    );
    assert.equal(e.problems.length, 6);
  });

  it('reports a file that does not decode, naming the field or the line', async () => {
    const wrongType = await startError({}, `${head}jwt:\n- issuer:\n    url: 42\n`);
    assert.match(
      wrongType.message,
      /^failed to load authentication configuration from file ".*authn-\d+\.yaml": json: cannot unmarshal number into Go struct field Issuer\.jwt\.issuer\.url of type string$/,
    );
    const unknown = await startError({}, `${head}jwt:\n- issuer:\n    url: https://x\n    audience: [a]\n`);
    assert.match(unknown.message, /strict decoding error: unknown field "jwt\[0\]\.issuer\.audience"$/);
    const yaml = await startError({}, `${head}jwt: [\n`);
    assert.match(yaml.message, /error converting YAML to JSON: .*line 4/);
    const version = await startError(
      {},
      'apiVersion: apiserver.config.orch.io/v1\nkind: AuthenticationConfiguration\n',
    );
    assert.match(
      version.message,
      /no kind "AuthenticationConfiguration" is registered for version "apiserver\.config\.orch\.io\/v1"$/,
    );
    const missing = await startError({ authenticationConfigFile: join(dir, 'absent.yaml') });
    assert.match(
      missing.message,
      /^failed to load authentication configuration from file ".*absent\.yaml": open .*absent\.yaml: no such file or directory$/,
    );
  });

  it('refuses the file together with --oidc-* flags, or its anonymous section with --anonymous-auth', async () => {
    const valid = `${head}anonymous:\n  enabled: true\n`;
    const oidc = await startError({ oidc: { issuerURL: 'https://idp.example', clientID: 'orch' } }, valid);
    assert.equal(oidc.message, 'authentication-config file and oidc-* flags are mutually exclusive');
    const anonymous = await startError({ anonymous: true }, valid);
    assert.equal(
      anonymous.message,
      'anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    );
  });

  it('refuses a JWT issuer that is a service-account issuer', async () => {
    const e = await startError(
      { serviceAccountIssuers: ['https://sa.example'] },
      `${head}jwt:\n- issuer:\n    url: https://sa.example\n    audiences: [a]\n  claimMappings:\n    username: {claim: sub, prefix: ""}\n`,
    );
    assert.equal(
      e.message,
      'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "https://sa.example": URL must not overlap with disallowed issuers: [https://sa.example]',
    );
  });

  it('needs the StructuredAuthenticationConfiguration gate for the file', async () => {
    const e = await startError({}, `${head}jwt: []\n`, { StructuredAuthenticationConfiguration: false });
    assert.equal(
      e.message,
      'set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file',
    );
  });

  it('validates the --oidc-* flags as kube-apiserver does', async () => {
    const together = await startError({ oidc: { issuerURL: 'https://idp.example', clientID: '' } });
    assert.equal(
      together.message,
      'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set',
    );
    const https = await startError({ oidc: { issuerURL: 'http://idp.example', clientID: 'orch' } });
    assert.equal(
      https.message,
      'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://idp.example": URL scheme must be https',
    );
    const alg = await startError({
      oidc: { issuerURL: 'https://idp.example', clientID: 'orch', signingAlgs: ['HS256'] },
    });
    assert.equal(alg.message, 'oidc: unsupported signing alg: "HS256"');
    const ca = await startError({
      oidc: { issuerURL: 'https://idp.example', clientID: 'orch', caFile: join(dir, 'nope.crt') },
    });
    assert.match(ca.message, /^open .*nope\.crt: no such file or directory$/);
  });
});

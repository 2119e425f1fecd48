import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { apiDomain } from '../../src/apis/api-domain.js';
import { builtinResources } from '../../src/apis/builtin.js';
import { AuthenticationCelCompiler } from '../../src/authn/authentication-config/authentication-cel-compiler.js';
import { decodeAuthenticationConfiguration } from '../../src/authn/authentication-config/decode-authentication-config.js';
import { validateAuthenticationConfiguration } from '../../src/authn/authentication-config/validate-authentication-config.js';
import { CelEnvironmentSet } from '../../src/cel/environment-set.js';
import { versionedCelLibraries } from '../../src/cel/library/index.js';
import { parseApiServerCommandLine } from '../../src/cli/flags/apiserver-flags.js';
import { newOrchFeatureGates } from '../../src/featuregate/orch-features.js';

const README = readFileSync(resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const blocks = [...README.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] as string }));

describe('README authentication examples', () => {
  it('the OIDC flags example parses', () => {
    const block = blocks.find((b) => b.lang === 'sh' && b.text.includes('--oidc-issuer-url'));
    assert.ok(block, 'README has an --oidc-* example');
    const argv = block.text
      .replace(/\\\n/g, ' ')
      .split(/\s+/)
      .filter((a) => a.startsWith('--') && a.length > 2);
    const parsed = parseApiServerCommandLine(argv, {
      featureGates: newOrchFeatureGates(),
      servedResources: () => builtinResources({ domain: apiDomain() }),
    });
    assert.ok(!parsed.help);
    assert.equal(parsed.flags.authentication.oidc?.issuerURL, 'https://idp.example.com');
  });

  it('the configuration file example is valid', () => {
    const block = blocks.find((b) => b.lang === 'yaml' && b.text.includes('kind: AuthenticationConfiguration'));
    assert.ok(block, 'README has an AuthenticationConfiguration example');
    const config = decodeAuthenticationConfiguration(block.text, apiDomain());
    const compiler = new AuthenticationCelCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
    const r = validateAuthenticationConfiguration(config, {
      compiler,
      disallowedIssuers: [],
      domain: apiDomain(),
      anonymousConfigurableEndpoints: true,
    });
    assert.deepEqual(r.errors, []);
    assert.equal(config.anonymous?.conditions.length, 3);
  });
});

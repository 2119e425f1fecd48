import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGateError } from './errors.js';
import { FeatureGates, parseFeatureGateValue } from './feature-gates.js';
import { newOrchFeatureGates, OrchFeatures } from './orch-features.js';

function gates(): FeatureGates {
  return new FeatureGates({
    AlphaOff: { default: false, stage: 'ALPHA' },
    BetaOn: { default: true, stage: 'BETA' },
    BetaOff: { default: false, stage: 'BETA' },
    GaLocked: { default: true, stage: 'GA', lockToDefault: true },
    GaOpen: { default: true, stage: 'GA' },
    Old: { default: false, stage: 'DEPRECATED' },
  });
}

function rejects(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof FeatureGateError, String(err));
    assert.equal(err.message, message);
    return true;
  });
}

describe('FeatureGates', () => {
  it('knows Orch features at their v1.32 defaults', () => {
    const g = newOrchFeatureGates();
    assert.deepEqual(g.snapshot(), {
      APIResponseCompression: true,
      APIServerIdentity: true,
      AggregatedDiscoveryEndpoint: true,
      AllowUnsafeMalformedObjectDeletion: false,
      AnonymousAuthConfigurableEndpoints: true,
      AuthorizeNodeWithSelectors: true,
      AuthorizeWithSelectors: true,
      CBORServingAndStorage: false,
      CoordinatedLeaderElection: false,
      StructuredAuthenticationConfiguration: true,
      StructuredAuthorizationConfiguration: true,
      WatchList: true,
    });
    assert.equal(g.enabled(OrchFeatures.CBORServingAndStorage), false);
  });

  it('instances are independent', () => {
    const a = newOrchFeatureGates();
    const b = newOrchFeatureGates();
    a.set('WatchList=false');
    assert.equal(a.enabled('WatchList'), false);
    assert.equal(b.enabled('WatchList'), true);
  });

  const setCases: { value: string; expect: Record<string, boolean>; warnings?: string[] }[] = [
    { value: 'AlphaOff=true,BetaOn=false', expect: { AlphaOff: true, BetaOn: false } },
    { value: ' AlphaOff = true , BetaOn=false ', expect: { AlphaOff: true, BetaOn: false } },
    { value: 'AlphaOff=1,BetaOn=F', expect: { AlphaOff: true, BetaOn: false } },
    { value: 'AlphaOff=TRUE,,BetaOn=False,', expect: { AlphaOff: true, BetaOn: false } },
    { value: '', expect: { AlphaOff: false, BetaOn: true } },
    { value: 'AlphaOff=true,AlphaOff=false', expect: { AlphaOff: false } },
    {
      value: 'GaLocked=true',
      expect: { GaLocked: true },
      warnings: ['Setting GA feature gate GaLocked=true. It will be removed in a future release.'],
    },
    {
      value: 'GaOpen=false',
      expect: { GaOpen: false },
      warnings: ['Setting GA feature gate GaOpen=false. It will be removed in a future release.'],
    },
    {
      value: 'Old=true',
      expect: { Old: true },
      warnings: ['Setting deprecated feature gate Old=true. It will be removed in a future release.'],
    },
    { value: 'AllAlpha=true', expect: { AlphaOff: true, BetaOff: false, Old: false } },
    { value: 'AllBeta=false', expect: { BetaOn: false, BetaOff: false, AlphaOff: false } },
    { value: 'AllAlpha=true,AlphaOff=false', expect: { AlphaOff: false } },
    { value: 'AlphaOff=false,AllAlpha=true', expect: { AlphaOff: false } },
    { value: 'AllBeta=true,BetaOn=false', expect: { BetaOn: false, BetaOff: true } },
  ];
  for (const c of setCases) {
    it(`set(${JSON.stringify(c.value)})`, () => {
      const g = gates();
      assert.deepEqual(g.set(c.value), c.warnings ?? []);
      for (const [name, on] of Object.entries(c.expect)) assert.equal(g.enabled(name), on, name);
    });
  }

  const errorCases: [string, string][] = [
    ['Nope=true', 'unrecognized feature gate: Nope'],
    ['AlphaOff', 'missing bool value for AlphaOff'],
    ['AlphaOff=maybe', 'invalid value of AlphaOff=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['AlphaOff=', 'invalid value of AlphaOff=, err: strconv.ParseBool: parsing "": invalid syntax'],
    ['GaLocked=false', 'cannot set feature gate GaLocked to false, feature is locked to true'],
    [
      'Nope=true,GaLocked=false',
      '[unrecognized feature gate: Nope, cannot set feature gate GaLocked to false, feature is locked to true]',
    ],
  ];
  for (const [value, message] of errorCases) {
    it(`set(${JSON.stringify(value)}) fails`, () => rejects(() => gates().set(value), message));
  }

  it('applies nothing when any item is rejected', () => {
    const g = gates();
    rejects(() => g.set('AlphaOff=true,Nope=true'), 'unrecognized feature gate: Nope');
    assert.equal(g.enabled('AlphaOff'), false);
  });

  it('check validates without applying', () => {
    const g = gates();
    assert.deepEqual(g.check({ GaOpen: false }), [
      'Setting GA feature gate GaOpen=false. It will be removed in a future release.',
    ]);
    assert.equal(g.enabled('GaOpen'), true);
    rejects(() => g.check({ X: true }), 'unrecognized feature gate: X');
  });

  it('later set calls override earlier ones; explicit settings outlive AllAlpha changes', () => {
    const g = gates();
    g.set('AlphaOff=true');
    g.set('AllAlpha=false');
    assert.equal(g.enabled('AlphaOff'), true);
    g.set('AlphaOff=false');
    assert.equal(g.enabled('AlphaOff'), false);
  });

  it('registers more features and rejects conflicting registrations', () => {
    const g = newOrchFeatureGates();
    g.add({ MyFeature: { default: false, stage: 'ALPHA' } });
    g.add({ MyFeature: { default: false, stage: 'ALPHA' } });
    g.set('MyFeature=true');
    assert.equal(g.enabled('MyFeature'), true);
    rejects(
      () => g.add({ WatchList: { default: false, stage: 'BETA' } }),
      'feature gate WatchList with different spec already exists: {"default":true,"stage":"BETA"}',
    );
    rejects(() => g.add({ AllAlpha: { default: false, stage: 'ALPHA' } }), 'feature gate AllAlpha is reserved');
  });

  it('enabled() of an unregistered feature is an error', () => {
    rejects(() => gates().enabled('Missing'), 'feature "Missing" is not registered in FeatureGate');
  });

  it('lists settable features for --help', () => {
    assert.deepEqual(gates().knownFeatures(), [
      'AllAlpha=true|false (ALPHA - default=false)',
      'AllBeta=true|false (BETA - default=false)',
      'AlphaOff=true|false (ALPHA - default=false)',
      'BetaOff=true|false (BETA - default=false)',
      'BetaOn=true|false (BETA - default=true)',
      'GaOpen=true|false (GA - default=true)',
      'Old=true|false (DEPRECATED - default=false)',
    ]);
  });

  it('parseFeatureGateValue returns the map', () => {
    assert.deepEqual(parseFeatureGateValue('A=true,B=0'), { A: true, B: false });
  });
});

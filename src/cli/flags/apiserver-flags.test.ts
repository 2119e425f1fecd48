import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ApiDomainName, apiDomain } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import { type ApiServerFlags, apiServerUsage, parseApiServerCommandLine } from './apiserver-flags.js';
import { FlagParseError, FlagValidationError } from './errors.js';

const servedResources = (domain: ApiDomainName) => builtinResources({ domain: apiDomain(domain) });

function run(argv: string[]) {
  const featureGates = newOrchFeatureGates();
  const parsed = parseApiServerCommandLine(argv, { featureGates, servedResources });
  if (parsed.help) throw new Error('unexpected help');
  return { ...parsed, featureGates };
}

function flags(argv: string[]): ApiServerFlags {
  return run(argv).flags;
}

describe('parseApiServerCommandLine', () => {
  it('has kube-like defaults', () => {
    const f = flags([]);
    assert.equal(f.dataDir, './.orch');
    assert.equal(f.bindAddress, '127.0.0.1');
    assert.equal(f.securePort, 6443);
    assert.equal(f.storageBackend, 'embedded');
    assert.deepEqual(f.etcdServers, []);
    assert.equal(f.etcdPrefix, '/registry');
    assert.equal(f.etcdCompactionIntervalMs, 300_000);
    assert.equal(f.certDir, '.orch/pki');
    assert.equal(f.tlsCertFile, '');
    assert.equal(f.tlsPrivateKeyFile, '');
    assert.equal(f.clientCaFile, '');
    assert.deepEqual(f.featureGates, {});
    assert.deepEqual(f.authorizationModes, ['Node', 'RBAC']);
    assert.equal(f.shutdownDelayDurationMs, 0);
    assert.equal(f.livezGracePeriodMs, 0);
    assert.equal(f.runControllers, true);
    assert.equal(f.runtimeConfig.isEnabled('coordination.orch.io', 'v1'), true);
  });

  it('reads every flag', () => {
    const f = flags([
      '--data-dir=/var/lib/orch',
      '--bind-address',
      '0.0.0.0',
      '--secure-port=0',
      '--storage-backend=etcd3',
      '--etcd-servers=http://127.0.0.1:2379,http://127.0.0.1:22379',
      '--etcd-servers',
      'http://127.0.0.1:32379',
      '--etcd-prefix=/orch',
      '--etcd-compaction-interval=0',
      '--cert-dir=/tmp/pki',
      '--tls-cert-file=/tmp/tls.crt',
      '--tls-private-key-file=/tmp/tls.key',
      '--client-ca-file=/tmp/ca.crt',
      '--feature-gates=CBORServingAndStorage=true',
      '--feature-gates',
      'WatchList=false',
      '--runtime-config=coordination.orch.io/v1=false,api/v1/events=false',
      '--authorization-mode=AlwaysAllow',
      '--shutdown-delay-duration=10s',
      '--livez-grace-period=1m30s',
      '--run-controllers=false',
      '--min-request-timeout=60',
      '--show-hidden-metrics-for-version=1.31',
      '--anonymous-auth=false',
      '--api-audiences=https://a.example,b',
    ]);
    assert.deepEqual(
      { ...f, runtimeConfig: undefined },
      {
        dataDir: '/var/lib/orch',
        authentication: { anonymous: false, apiAudiences: ['https://a.example', 'b'] },
        bindAddress: '0.0.0.0',
        securePort: 0,
        storageBackend: 'etcd3',
        etcdServers: ['http://127.0.0.1:2379', 'http://127.0.0.1:22379', 'http://127.0.0.1:32379'],
        etcdPrefix: '/orch',
        etcdCompactionIntervalMs: 0,
        certDir: '/tmp/pki',
        tlsCertFile: '/tmp/tls.crt',
        tlsPrivateKeyFile: '/tmp/tls.key',
        clientCaFile: '/tmp/ca.crt',
        featureGates: { CBORServingAndStorage: true, WatchList: false },
        runtimeConfig: undefined,
        apiDomain: 'orch.io',
        authorizationModes: ['AlwaysAllow'],
        authorizationPolicyFile: '',
        authorization: {},
        enableAdmissionPlugins: [],
        disableAdmissionPlugins: [],
        shutdownDelayDurationMs: 10_000,
        livezGracePeriodMs: 90_000,
        runControllers: false,
        leaderElection: {
          leaderElect: true,
          leaseDuration: '15s',
          renewDeadline: '10s',
          retryPeriod: '2s',
          resourceLock: 'leases',
          resourceName: 'orch-controller-manager',
          resourceNamespace: 'orch-system',
        },
        minRequestTimeout: 60,
        serviceClusterIPRange: '',
        serviceNodePortRange: '30000-32767',
        advertiseAddress: '',
        showHiddenMetricsForVersion: '1.31',
        audit: { policyFile: '', logPath: '', logMaxAgeDays: 0, logMaxBackups: 0, logMaxSizeMB: 0 },
      },
    );
    assert.equal(f.runtimeConfig.isEnabled('coordination.orch.io', 'v1'), false);
    assert.equal(f.runtimeConfig.isEnabled('', 'v1', 'events'), false);
    assert.equal(f.runtimeConfig.isEnabled('', 'v1', 'configmaps'), true);
  });

  it('reads the webhook flags of mode Webhook, with kube defaults', () => {
    assert.deepEqual(
      flags(['--authorization-mode=RBAC,Webhook', '--authorization-webhook-config-file=/a.yaml']).authorization,
      {
        webhook: {
          configFile: '/a.yaml',
          version: 'v1beta1',
          cacheAuthorizedTtlMs: 300_000,
          cacheUnauthorizedTtlMs: 30_000,
        },
      },
    );
    const f = flags([
      '--authorization-mode=Webhook',
      '--authorization-webhook-config-file=/a.yaml',
      '--authorization-webhook-version=v1',
      '--authorization-webhook-cache-authorized-ttl=1m',
      '--authorization-webhook-cache-unauthorized-ttl=0',
    ]);
    assert.deepEqual(f.authorization, {
      webhook: { configFile: '/a.yaml', version: 'v1', cacheAuthorizedTtlMs: 60_000, cacheUnauthorizedTtlMs: 0 },
    });
  });

  it('reads --authorization-config alone, or with the ABAC policy file', () => {
    assert.deepEqual(flags(['--authorization-config=/etc/authz.yaml']).authorization, {
      configFile: '/etc/authz.yaml',
    });
    const f = flags(['--authorization-config=/etc/authz.yaml', '--authorization-policy-file=/etc/abac.jsonl']);
    assert.equal(f.authorizationPolicyFile, '/etc/abac.jsonl');
  });

  it('derives --cert-dir from --data-dir unless given', () => {
    assert.equal(flags(['--data-dir=/srv/orch']).certDir, '/srv/orch/pki');
    assert.equal(flags(['--data-dir=/srv/orch', '--cert-dir=/elsewhere']).certDir, '/elsewhere');
  });

  it('reads --authorization-policy-file with mode ABAC', () => {
    const f = flags(['--authorization-mode=ABAC,RBAC', '--authorization-policy-file=/etc/abac.jsonl']);
    assert.deepEqual(f.authorizationModes, ['ABAC', 'RBAC']);
    assert.equal(f.authorizationPolicyFile, '/etc/abac.jsonl');
  });

  it('applies feature gates to the injected gates, with warnings', () => {
    const { featureGates, warnings } = run(['--feature-gates=APIResponseCompression=false,CBORServingAndStorage=true']);
    assert.equal(featureGates.enabled('APIResponseCompression'), false);
    assert.equal(featureGates.enabled('CBORServingAndStorage'), true);
    assert.deepEqual(warnings, []);
    featureGates.add({ Done: { default: true, stage: 'GA' } });
    const again = parseApiServerCommandLine(['--feature-gates=Done=true'], { featureGates, servedResources });
    assert.ok(!again.help);
    assert.deepEqual(again.warnings, ['Setting GA feature gate Done=true. It will be removed in a future release.']);
  });

  it('answers --help with generated usage', () => {
    const featureGates = newOrchFeatureGates();
    const parsed = parseApiServerCommandLine(['--secure-port=1', '--help'], { featureGates, servedResources });
    assert.equal(parsed.help, true);
    assert.ok(parsed.help && parsed.usage === apiServerUsage({ featureGates, servedResources }));
    const usage = apiServerUsage({ featureGates, servedResources });
    assert.match(usage, /^Usage:\n {2}orch-apiserver \[flags\]$/m);
    assert.match(usage, /^ {6}--secure-port int {3,}The port .* \(default 6443\)$/m);
    assert.match(usage, /^ {6}--etcd-compaction-interval duration {3,}.* \(default 5m0s\)$/m);
    assert.match(usage, /^ {6}--cert-dir string {3,}.* \(default "<data-dir>\/pki"\)$/m);
    assert.match(usage, /^Etcd flags:$/m);
    assert.match(usage, /^ {3,}WatchList=true\|false \(BETA - default=true\)$/m);
    assert.match(usage, /^ {2}-h, --help {3,}help for orch-apiserver$/m);
  });

  it('gives --runtime-config examples that name served group versions and resources', () => {
    const usage = apiServerUsage({ featureGates: newOrchFeatureGates(), servedResources });
    const examples = [...usage.matchAll(/e\.g\. (\S+)=(?:true|false)/g)].map((m) => m[1]);
    assert.ok(examples.length >= 2, usage);
    for (const key of examples) {
      assert.doesNotThrow(
        () =>
          parseApiServerCommandLine([`--runtime-config=${key}=false`], {
            featureGates: newOrchFeatureGates(),
            servedResources,
          }),
        key,
      );
    }
  });

  const parseErrors: [string[], string][] = [
    [['--x'], 'unknown flag: --x'],
    [['--api-domain=k9s.io'], 'invalid argument "k9s.io" for "--api-domain" flag: must be one of orch.io, k8s.io'],
    [
      ['--secure-port=abc'],
      'invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    [['--secure-port'], 'flag needs an argument: --secure-port'],
    [
      ['--bind-address=localhost'],
      'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"',
    ],
    [
      ['--etcd-compaction-interval=5'],
      'invalid argument "5" for "--etcd-compaction-interval" flag: time: missing unit in duration "5"',
    ],
    [
      ['--feature-gates=Nope=true'],
      'invalid argument "Nope=true" for "--feature-gates" flag: unrecognized feature gate: Nope',
    ],
    [
      // Gates kube v1.32 no longer has are unknown.
      ['--feature-gates=APISelfSubjectReview=true'],
      'invalid argument "APISelfSubjectReview=true" for "--feature-gates" flag: unrecognized feature gate: APISelfSubjectReview',
    ],
    [
      // A GA gate locked to its default cannot be turned off.
      ['--feature-gates=AggregatedDiscoveryEndpoint=false'],
      'invalid argument "AggregatedDiscoveryEndpoint=false" for "--feature-gates" flag: cannot set feature gate AggregatedDiscoveryEndpoint to false, feature is locked to true',
    ],
    [
      ['--feature-gates=WatchList'],
      'invalid argument "WatchList" for "--feature-gates" flag: missing bool value for WatchList',
    ],
    [
      ['--feature-gates=WatchList=nah'],
      'invalid argument "WatchList=nah" for "--feature-gates" flag: invalid value of WatchList=nah, err: strconv.ParseBool: parsing "nah": invalid syntax',
    ],
    [['serve'], '"orch-apiserver" does not take any arguments, got ["serve"]'],
  ];
  for (const [argv, message] of parseErrors) {
    it(`rejects ${argv.join(' ')}`, () => {
      assert.throws(
        () => run(argv),
        (err: unknown) => err instanceof FlagParseError && err.message === message,
      );
    });
  }

  const validationErrors: [string[], string][] = [
    [['--storage-backend=etcd3'], '--etcd-servers must be specified'],
    [
      ['--storage-backend=sqlite'],
      "--storage-backend invalid, allowed values: embedded, etcd3. If not specified, it will default to 'embedded'",
    ],
    [['--secure-port=70000'], '--secure-port 70000 must be between 0 and 65535, inclusive. 0 for a free port'],
    [['--secure-port=-1'], '--secure-port -1 must be between 0 and 65535, inclusive. 0 for a free port'],
    [['--tls-cert-file=a.crt'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [['--tls-private-key-file=a.key'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [
      ['--enable-admission-plugins=Nope'],
      'enable-admission-plugins plugin "Nope" is unknown (known: NamespaceLifecycle, NodeRestriction, TaintNodesByCondition, Priority, DefaultTolerationSeconds, DefaultStorageClass)',
    ],
    [
      ['--enable-admission-plugins=NamespaceLifecycle', '--disable-admission-plugins=NamespaceLifecycle'],
      'NamespaceLifecycle in enable-admission-plugins and disable-admission-plugins overlapped',
    ],
    [['--authorization-mode=Magic'], 'authorization-mode "Magic" is not a valid mode'],
    [['--authorization-mode=ABAC,RBAC'], "authorization-mode ABAC's authorization policy file not passed"],
    [['--authorization-policy-file=/etc/abac.jsonl'], 'cannot specify --authorization-policy-file without mode ABAC'],
    [['--authorization-mode=Webhook'], "authorization-mode Webhook's authorization config file not passed"],
    [
      ['--authorization-config=/etc/authz.yaml', '--authorization-mode=RBAC'],
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ],
    [
      ['--authorization-config=/etc/authz.yaml', '--authorization-webhook-cache-authorized-ttl=1m'],
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ],
    [
      ['--authorization-webhook-config-file=/etc/authz.yaml'],
      'cannot specify --authorization-webhook-config-file without mode Webhook',
    ],
    [
      [
        '--authorization-mode=Webhook,RBAC',
        '--authorization-webhook-config-file=a',
        '--authorization-webhook-version=v2',
      ],
      'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"',
    ],
    [['--authorization-mode='], 'at least one authorization-mode must be passed'],
    [
      ['--authorization-mode=AlwaysAllow,AlwaysAllow'],
      'authorization-mode "AlwaysAllow" has mode specified more than once',
    ],
    [['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
    [['--livez-grace-period=-1s'], '--livez-grace-period can not be a negative value'],
    [['--etcd-compaction-interval=-5m'], '--etcd-compaction-interval can not be a negative value'],
    [
      ['--runtime-config=coordination.orch.io/v1=nah'],
      'invalid value of coordination.orch.io/v1: nah, err: strconv.ParseBool: parsing "nah": invalid syntax',
    ],
    [['--runtime-config=foo.orch.io/v1'], 'unknown api groups foo.orch.io'],
    [['--runtime-config=extensions/v1beta1=false'], 'unknown api groups extensions'],
    [
      ['--runtime-config=coordination.orch.io/v2'],
      'group version coordination.orch.io/v2 that has not been registered',
    ],
    [['--runtime-config=v2'], 'runtime-config invalid key v2'],
    [['--runtime-config=api/v1/widgets=false'], 'resource widgets of group version v1 that has not been registered'],
    [['--runtime-config=api/all=false'], 'invalid key with only api/all=false'],
    [
      ['--storage-backend=etcd3', '--tls-cert-file=a', '--livez-grace-period=-1s'],
      '[--etcd-servers must be specified, --tls-cert-file and --tls-private-key-file must be specified together, --livez-grace-period can not be a negative value]',
    ],
  ];
  for (const [argv, message] of validationErrors) {
    it(`refuses ${argv.join(' ')}`, () => {
      assert.throws(
        () => run(argv),
        (err: unknown) => {
          assert.ok(err instanceof FlagValidationError, String(err));
          assert.equal(err.message, message);
          return true;
        },
      );
    });
  }

  it('leaves the feature gates untouched when the command line is rejected', () => {
    const featureGates = newOrchFeatureGates();
    assert.throws(() =>
      parseApiServerCommandLine(['--feature-gates=WatchList=false', '--storage-backend=etcd3'], {
        featureGates,
        servedResources,
      }),
    );
    assert.equal(featureGates.enabled('WatchList'), true);
  });
});

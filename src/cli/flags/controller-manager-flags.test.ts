import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { decodeControllerManagerConfiguration } from '../../controllermanager/config/decode.js';
import { defaultControllerManagerConfiguration } from '../../controllermanager/config/defaults.js';
import { controllerManagerMain } from '../controller-manager-command.js';
import { type ControllerManagerCommandOptions, loadControllerManagerOptions } from './controller-manager-flags.js';
import { FlagParseError, FlagValidationError } from './errors.js';

const CONTROLLERS = [
  { name: 'deployment-controller', aliases: ['deployment'], enabledByDefault: true },
  { name: 'job-controller', aliases: ['job'], enabledByDefault: true },
  { name: 'token-cleaner-controller', aliases: ['tokencleaner'], enabledByDefault: false },
];
const HEAD = 'apiVersion: orchcontrollermanager.config.orch.io/v1alpha1\nkind: OrchControllerManagerConfiguration\n';

function load(argv: string[], files: Record<string, string> = {}): ControllerManagerCommandOptions {
  const loaded = loadControllerManagerOptions(argv, {
    controllers: CONTROLLERS,
    readFile: (p) => {
      if (!(p in files)) throw new Error(`open ${p}: no such file or directory`);
      return files[p];
    },
  });
  assert.equal(loaded.help, false);
  return (loaded as { options: ControllerManagerCommandOptions }).options;
}

function problems(argv: string[], files: Record<string, string> = {}): readonly string[] {
  try {
    load(argv, files);
  } catch (e) {
    assert.ok(e instanceof FlagValidationError, String(e));
    return e.problems;
  }
  assert.fail('expected the command line to be rejected');
}

describe('orch-controller-manager command line', () => {
  it('without flags is kube’s default configuration with every default-enabled controller', () => {
    const o = load([]);
    assert.deepEqual(o.config, defaultControllerManagerConfiguration(apiDomain('orch.io')));
    assert.deepEqual(o.enabledControllers, ['deployment-controller', 'job-controller']);
    assert.equal(o.writeConfigTo, undefined);
    assert.equal(o.configFile, undefined);
    assert.equal(load(['--api-domain=k8s.io']).config.kind, 'KubeControllerManagerConfiguration');
  });

  it('each flag overrides its member', () => {
    const o = load([
      '--controllers=*,-job,tokencleaner',
      '--min-resync-period=1h',
      '--controller-start-interval=100ms',
      '--kube-api-qps=7.5',
      '--kube-api-burst=9',
      '--kube-api-content-type=application/json',
      '--kubeconfig=/etc/orch/cm.conf',
      '--leader-elect=false',
      '--leader-elect-lease-duration=30s',
      '--leader-elect-renew-deadline=20s',
      '--leader-elect-retry-period=3s',
      '--leader-elect-resource-name=cm',
      '--leader-elect-resource-namespace=ns',
      '--profiling=false',
      '--contention-profiling',
      '--secure-port=0',
      '--bind-address=127.0.0.1',
      '--use-service-account-credentials',
      '--concurrent-deployment-syncs=11',
      '--concurrent-replicaset-syncs=12',
      '--concurrent-job-syncs=13',
      '--concurrent-cron-job-syncs=14',
      '--concurrent-ttl-after-finished-syncs=15',
      '--concurrent-service-endpoint-syncs=16',
      '--max-endpoints-per-slice=17',
      '--endpointslice-updates-batch-period=1s',
      '--concurrent-gc-syncs=18',
      '--enable-garbage-collector=false',
      '--concurrent-namespace-syncs=19',
      '--namespace-sync-period=2m',
      '--concurrent-serviceaccount-token-syncs=20',
      '--service-account-private-key-file=/k/sa.key',
      '--root-ca-file=/k/ca.crt',
      '--legacy-service-account-token-clean-up-period=720h',
      '--terminated-pod-gc-threshold=0',
    ]);
    const c = o.config;
    assert.deepEqual(c.Generic.Controllers, ['*', '-job-controller', 'token-cleaner-controller']);
    assert.deepEqual(o.enabledControllers, ['deployment-controller', 'token-cleaner-controller']);
    assert.equal(c.Generic.MinResyncPeriod, '1h0m0s');
    assert.equal(c.Generic.ControllerStartInterval, '100ms');
    assert.deepEqual(c.Generic.ClientConnection, {
      orchconfig: '/etc/orch/cm.conf',
      acceptContentTypes: '',
      contentType: 'application/json',
      qps: 7.5,
      burst: 9,
    });
    assert.deepEqual(c.Generic.LeaderElection, {
      leaderElect: false,
      leaseDuration: '30s',
      renewDeadline: '20s',
      retryPeriod: '3s',
      resourceLock: 'leases',
      resourceName: 'cm',
      resourceNamespace: 'ns',
    });
    assert.deepEqual(c.Generic.Debugging, { enableProfiling: false, enableContentionProfiling: true });
    assert.equal(c.Generic.Port, 0);
    assert.equal(c.Generic.Address, '127.0.0.1');
    assert.equal(c.OrchCloudShared.UseServiceAccountCredentials, true);
    assert.equal(c.DeploymentController.ConcurrentDeploymentSyncs, 11);
    assert.equal(c.ReplicaSetController.ConcurrentRSSyncs, 12);
    assert.equal(c.JobController.ConcurrentJobSyncs, 13);
    assert.equal(c.CronJobController.ConcurrentCronJobSyncs, 14);
    assert.equal(c.TTLAfterFinishedController.ConcurrentTTLSyncs, 15);
    assert.deepEqual(c.EndpointSliceController, {
      ConcurrentServiceEndpointSyncs: 16,
      MaxEndpointsPerSlice: 17,
      EndpointUpdatesBatchPeriod: '1s',
    });
    assert.deepEqual(c.GarbageCollectorController.ConcurrentGCSyncs, 18);
    assert.equal(c.GarbageCollectorController.EnableGarbageCollector, false);
    assert.deepEqual(c.NamespaceController, { NamespaceSyncPeriod: '2m0s', ConcurrentNamespaceSyncs: 19 });
    assert.deepEqual(c.SAController, {
      ServiceAccountKeyFile: '/k/sa.key',
      ConcurrentSATokenSyncs: 20,
      RootCAFile: '/k/ca.crt',
    });
    assert.equal(c.LegacySATokenCleaner.CleanUpPeriod, '720h0m0s');
    assert.equal(c.PodGCController.TerminatedPodGCThreshold, 0);
  });

  it('flags override the file; members no flag names keep the file’s values', () => {
    const file = `${HEAD}Generic:\n  Controllers: [deployment]\n  MinResyncPeriod: 30m\n  LeaderElection: {resourceName: from-file}\nDeploymentController: {ConcurrentDeploymentSyncs: 3}\nJobController: {ConcurrentJobSyncs: 4}\n`;
    const o = load(['--config=/c.yaml', '--concurrent-job-syncs=8', '--leader-elect-resource-namespace=flag-ns'], {
      '/c.yaml': file,
    });
    assert.equal(o.configFile, '/c.yaml');
    assert.deepEqual(o.config.Generic.Controllers, ['deployment-controller']);
    assert.deepEqual(o.enabledControllers, ['deployment-controller']);
    assert.equal(o.config.Generic.MinResyncPeriod, '30m0s');
    assert.equal(o.config.Generic.LeaderElection.resourceName, 'from-file');
    assert.equal(o.config.Generic.LeaderElection.resourceNamespace, 'flag-ns');
    assert.equal(o.config.DeploymentController.ConcurrentDeploymentSyncs, 3);
    assert.equal(o.config.JobController.ConcurrentJobSyncs, 8);
    // A flag given with its default value still overrides the file.
    assert.equal(
      load(['--config=/c.yaml', '--concurrent-deployment-syncs=5'], { '/c.yaml': file }).config.DeploymentController
        .ConcurrentDeploymentSyncs,
      5,
    );
  });

  it('leader migration: the file named by --leader-migration-config, else kube’s default', () => {
    const migration =
      'apiVersion: controllermanager.config.orch.io/v1\nkind: LeaderMigrationConfiguration\nleaderName: move\ncontrollerLeaders:\n- {name: deployment, component: orch-controller-manager}\n';
    const o = load(['--enable-leader-migration', '--leader-migration-config=/m.yaml'], { '/m.yaml': migration });
    assert.equal(o.config.Generic.LeaderMigrationEnabled, true);
    assert.deepEqual(o.config.Generic.LeaderMigration, {
      leaderName: 'move',
      resourceLock: 'leases',
      controllerLeaders: [{ name: 'deployment', component: 'orch-controller-manager' }],
    });
    assert.equal(
      load(['--enable-leader-migration']).config.Generic.LeaderMigration.leaderName,
      'cloud-provider-extraction-migration',
    );
    // Not enabled: the file is not read (kube).
    assert.equal(load(['--leader-migration-config=/absent.yaml']).config.Generic.LeaderMigrationEnabled, false);
    assert.deepEqual(problems(['--enable-leader-migration', '--leader-migration-config=/absent.yaml']), [
      'unable to read leader migration configuration from "/absent.yaml": open /absent.yaml: no such file or directory',
    ]);
    assert.deepEqual(
      problems(['--enable-leader-migration', '--leader-migration-config=/m.yaml'], {
        '/m.yaml':
          'apiVersion: controllermanager.config.orch.io/v1alpha1\nkind: LeaderMigrationConfiguration\nresourceLock: leases\n',
      }),
      [
        'failed to parse leader migration configuration: /m.yaml: leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration',
      ],
    );
  });

  it('lists every problem of the file, or of the flags and the effective configuration', () => {
    assert.deepEqual(problems(['--config=/c.yaml'], { '/c.yaml': `${HEAD}Generic:\n  Port: x\n  Nope: 1\n` }), [
      '/c.yaml: json: cannot unmarshal string into Go struct field OrchControllerManagerConfiguration.Generic.Port of type int32',
      '/c.yaml: unknown field "Generic.Nope"',
    ]);
    assert.deepEqual(problems(['--config=/none.yaml']), [
      'unable to read config file from "/none.yaml": open /none.yaml: no such file or directory',
    ]);
    assert.deepEqual(
      problems([
        '--controllers=*,nope',
        '--secure-port=70000',
        '--leader-elect-renew-deadline=15s',
        '--concurrent-service-endpoint-syncs=0',
        '--tls-cert-file=a.crt',
      ]),
      [
        '--tls-cert-file and --tls-private-key-file must be specified together',
        'Generic.Port: Invalid value: 70000: must be between 0 and 65535, inclusive. 0 for turning off secure port',
        'Generic.LeaderElection.leaseDuration: Invalid value: 15s: LeaseDuration must be greater than RenewDeadline',
        'Generic.Controllers: "nope" is not in the list of known controllers',
        'Generic.Controllers: known controllers: deployment-controller, job-controller, token-cleaner-controller',
        'EndpointSliceController.ConcurrentServiceEndpointSyncs: Invalid value: 0: concurrent-service-endpoint-syncs must not be less than 1, but got 0',
      ],
    );
  });

  it('refuses unreadable flag values in pflag’s words, and positional arguments', () => {
    const parseError = (argv: string[]) => {
      try {
        load(argv);
      } catch (e) {
        assert.ok(e instanceof FlagParseError, String(e));
        return e.message;
      }
      assert.fail('expected a parse error');
    };
    assert.equal(
      parseError(['--concurrent-job-syncs=2147483648']),
      'invalid argument "2147483648" for "--concurrent-job-syncs" flag: strconv.ParseInt: parsing "2147483648": value out of range',
    );
    assert.equal(
      parseError(['--kube-api-qps=fast']),
      'invalid argument "fast" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax',
    );
    assert.equal(
      parseError(['--namespace-sync-period=5']),
      'invalid argument "5" for "--namespace-sync-period" flag: time: missing unit in duration "5"',
    );
    assert.equal(parseError(['--nope']), 'unknown flag: --nope');
    assert.equal(parseError(['extra']), '"orch-controller-manager" does not take any arguments, got ["extra"]');
  });

  it('prints help naming kube’s flags', () => {
    const loaded = loadControllerManagerOptions(['--help'], { controllers: CONTROLLERS });
    assert.equal(loaded.help, true);
    const usage = (loaded as { usage: string }).usage;
    for (const flag of [
      '--config string',
      '--write-config-to string',
      '--concurrent-gc-syncs int32',
      '--leader-elect ',
      '--secure-port int ',
    ]) {
      assert.ok(usage.includes(flag), flag);
    }
  });
});

describe('orch-controller-manager --write-config-to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-cm-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await controllerManagerMain(argv, {
      controllers: CONTROLLERS,
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
    });
    return { code, out, err };
  };

  it('writes the effective configuration, which decodes back to it, and exits 0 without running', async () => {
    for (const domain of ['orch.io', 'k8s.io'] as const) {
      const path = join(dir, `effective-${domain}.yaml`);
      const argv = [
        `--api-domain=${domain}`,
        '--controllers=*,-deployment',
        '--concurrent-gc-syncs=3',
        '--enable-leader-migration',
        `--write-config-to=${path}`,
      ];
      const r = await run(argv);
      assert.deepEqual(r, { code: 0, out: `Wrote configuration to: ${path}\n`, err: '' });
      const written = readFileSync(path, 'utf8');
      const expected = load(argv.slice(0, -1)).config;
      assert.deepEqual(decodeControllerManagerConfiguration(written, apiDomain(domain)), expected);
      assert.match(
        written,
        domain === 'k8s.io'
          ? /^kind: KubeControllerManagerConfiguration$/m
          : /^kind: OrchControllerManagerConfiguration$/m,
      );
    }
  });

  it('exits 1 with every problem, 0 with usage for --help', async () => {
    const bad = await run(['--secure-port=-1', '--controllers=x']);
    assert.equal(bad.code, 1);
    assert.equal(
      bad.err,
      'Error: [Generic.Port: Invalid value: -1: must be between 0 and 65535, inclusive. 0 for turning off secure port, Generic.Controllers: "x" is not in the list of known controllers, Generic.Controllers: known controllers: deployment-controller, job-controller, token-cleaner-controller]\n',
    );
    const help = await run(['-h']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage:\n {2}orch-controller-manager \[flags\]$/m);
  });
});

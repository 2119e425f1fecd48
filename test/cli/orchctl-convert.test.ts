import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { bundledProgram } from '../support/program-bundle.js';

// The real `orchctl` process on files, directories and standard input: kubectl-convert's output
// shapes (one object, or a List), formats, warnings and errors with their exit codes.

const ROOT = resolve(import.meta.dirname, '..', '..');
const NET = ORCH_DOMAIN.group('networking');
const SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

function orchctl(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...bundledProgram('src/cli/orchctl.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60000,
    input,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const INGRESS = `apiVersion: ${NET}/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
`;
const DEPLOYMENT = `apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: c
        image: nginx
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
`;

describe('orchctl convert (process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchctl-convert-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('converts a single object and prints it as YAML with sorted keys', () => {
    const r = orchctl(['convert', '-f', file('ingress.yaml', INGRESS), '--output-version', `${NET}/v1`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      `apiVersion: ${NET}/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n`,
    );
  });

  it('converts every document of a multi-document file into a List, each to its preferred version', () => {
    const r = orchctl(['convert', '-f', file('multi.yaml', `${INGRESS}---\n${DEPLOYMENT}---\n${SERVICE}`)]);
    assert.equal(r.code, 0, r.stderr);
    const list = parse(r.stdout);
    assert.equal(list.kind, 'List');
    assert.equal(list.apiVersion, 'v1');
    assert.deepEqual(
      list.items.map((i: { apiVersion: string; kind: string }) => `${i.apiVersion} ${i.kind}`),
      [`${NET}/v1 Ingress`, 'apps/v1 Deployment', 'v1 Service'],
    );
    assert.deepEqual(list.items[1].spec.selector, { matchLabels: { app: 'web' } });
  });

  it('reads a directory, and its subdirectories with -R, in name order', () => {
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'a.yaml'), INGRESS);
    writeFileSync(join(tree, 'notes.txt'), 'not a manifest');
    writeFileSync(join(tree, 'sub', 'b.yml'), DEPLOYMENT);
    const flat = orchctl(['convert', '-f', tree]);
    assert.equal(flat.code, 0, flat.stderr);
    // One file in the directory itself: kube's builder then prints the object alone.
    assert.equal(parse(flat.stdout).kind, 'Ingress');
    const deep = orchctl(['convert', '-f', tree, '-R']);
    assert.equal(deep.code, 0, deep.stderr);
    assert.deepEqual(
      parse(deep.stdout).items.map((i: { kind: string }) => i.kind),
      ['Ingress', 'Deployment'],
    );
  });

  it('reads several files named in one -f, comma-separated, into a List', () => {
    const a = file('one.yaml', INGRESS);
    const b = file('two.yaml', DEPLOYMENT);
    const r = orchctl(['convert', `--filename=${a},${b}`]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      parse(r.stdout).items.map((i: { kind: string }) => i.kind),
      ['Ingress', 'Deployment'],
    );
  });

  it('reads standard input with -f - and always prints a List', () => {
    const r = orchctl(['convert', '-f', '-'], DEPLOYMENT);
    assert.equal(r.code, 0, r.stderr);
    const list = parse(r.stdout);
    assert.equal(list.kind, 'List');
    assert.equal(list.items.length, 1);
    assert.equal(list.items[0].apiVersion, 'apps/v1');
  });

  it('prints JSON with -o json: four-space indent, kind and apiVersion first', () => {
    const r = orchctl(['convert', '-f', file('ingress.json', JSON.stringify(parse(INGRESS))), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith(`{\n    "kind": "Ingress",\n    "apiVersion": "${NET}/v1",\n`), r.stdout);
    assert.equal(JSON.parse(r.stdout).spec.defaultBackend.service.port.number, 80);
  });

  it('flattens a List input', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [parse(INGRESS), parse(DEPLOYMENT)] };
    const r = orchctl(['convert', '-f', file('list.json', JSON.stringify(list)), '-o', 'yaml']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parseAllDocuments(r.stdout).length, 1);
    assert.deepEqual(
      parse(r.stdout).items.map((i: { kind: string }) => i.kind),
      ['Ingress', 'Deployment'],
    );
  });

  it('reads the k8s.io profile’s group names with --api-domain k8s.io', () => {
    const kubeIngress = INGRESS.replace(NET, 'networking.k8s.io');
    const r = orchctl(
      ['convert', '-f', '-', '--api-domain', 'k8s.io', '--output-version', 'networking.k8s.io/v1'],
      kubeIngress,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parse(r.stdout).items[0].apiVersion, 'networking.k8s.io/v1');
  });

  it('reports an object whose kind lacks the output version on standard error and converts the rest', () => {
    const r = orchctl([
      'convert',
      '-f',
      file('mixed.yaml', `${SERVICE}---\n${INGRESS}`),
      '--output-version',
      `${NET}/v1`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `core.Service is not suitable for converting to "${NET}/v1" in scheme "${SCHEME}"\n`);
    assert.equal(parse(r.stdout).kind, 'Ingress');
  });

  const errors: { name: string; args: (f: typeof file) => string[]; stderr: string }[] = [
    {
      name: 'an unknown kind',
      args: (f) => [
        'convert',
        '-f',
        f('widget.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n'),
      ],
      stderr: `error: unable to decode "${join(dir, 'widget.yaml')}": no kind "Widget" is registered for version "example.com/v1" in scheme "${SCHEME}"\n`,
    },
    {
      name: 'the other domain’s group name',
      args: (f) => ['convert', '-f', f('kube.yaml', INGRESS.replace(NET, 'networking.k8s.io'))],
      stderr: `error: unable to decode "${join(dir, 'kube.yaml')}": no kind "Ingress" is registered for version "networking.k8s.io/v1beta1" in scheme "${SCHEME}"\n`,
    },
    {
      name: 'a kind with no output version at all',
      args: (f) => ['convert', '-f', f('svc.yaml', SERVICE), '--output-version', 'apps/v1'],
      stderr: `core.Service is not suitable for converting to "apps/v1" in scheme "${SCHEME}"\nerror: no object could be converted to the output version\n`,
    },
    {
      name: 'a missing kind',
      args: (f) => ['convert', '-f', f('nokind.yaml', 'apiVersion: v1\nmetadata:\n  name: x\n')],
      stderr: `error: unable to decode "${join(dir, 'nokind.yaml')}": Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'\n`,
    },
    {
      name: 'malformed YAML, naming the line',
      args: (f) => [
        'convert',
        '-f',
        f('bad.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: [\n'),
      ],
      stderr: `error: error parsing ${join(dir, 'bad.yaml')}: error converting YAML to JSON: yaml: line 5: All mapping items must start at the same column\n`,
    },
    { name: 'no -f', args: () => ['convert'], stderr: 'error: must specify one of -f and -k\n' },
    {
      name: 'a file without objects',
      args: (f) => ['convert', '-f', f('empty.yaml', '# nothing here\n---\n')],
      stderr: 'error: no objects passed to convert\n',
    },
    {
      name: 'a path that does not exist',
      args: () => ['convert', '-f', join(dir, 'missing.yaml')],
      stderr: `error: the path "${join(dir, 'missing.yaml')}" does not exist\n`,
    },
    {
      name: '--local=false',
      args: (f) => ['convert', '-f', f('i.yaml', INGRESS), '--local=false'],
      stderr: 'error: orchctl convert has no server-side mode: --local=false is not supported\n',
    },
    {
      name: 'an output format it does not print',
      args: (f) => ['convert', '-f', f('i.yaml', INGRESS), '-o', 'wide'],
      stderr:
        'error: unable to match a printer suitable for the output format "wide", allowed formats are: json,yaml\n',
    },
    {
      name: 'a malformed output version',
      args: (f) => ['convert', '-f', f('i.yaml', INGRESS), '--output-version', 'a/b/c'],
      stderr: 'error: unexpected GroupVersion string: a/b/c\n',
    },
    {
      name: 'an unknown flag',
      args: () => ['convert', '--bogus'],
      stderr: "error: unknown flag: --bogus\nSee 'orchctl convert --help' for usage.\n",
    },
    {
      name: 'an unknown subcommand',
      args: () => ['frobnicate'],
      stderr: `error: unknown command "frobnicate" for "orchctl"\nRun 'orchctl --help' for usage.\n`,
    },
  ];
  for (const e of errors) {
    it(`fails with exit code 1 on ${e.name}`, () => {
      const r = orchctl(e.args(file));
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.stderr, e.stderr);
      assert.equal(r.stdout, '');
    });
  }

  it('prints help for orchctl and for convert', () => {
    const top = orchctl(['--help']);
    assert.equal(top.code, 0);
    assert.match(top.stdout, /^ {2}convert {3,}Convert config files between different API versions$/m);
    const help = orchctl(['convert', '--help']);
    assert.equal(help.code, 0);
    for (const flag of [
      '-f, --filename',
      '--output-version',
      '-o, --output',
      '--local',
      '-R, --recursive',
      '--api-domain',
    ]) {
      assert.ok(help.stdout.includes(flag), flag);
    }
  });
});

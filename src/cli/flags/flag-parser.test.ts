import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagParseError } from './errors.js';
import { parseFlags } from './flag-parser.js';
import {
  boolFlag,
  customFlag,
  durationFlag,
  enumFlag,
  intFlag,
  ipFlag,
  keyValueFlag,
  stringFlag,
  stringListFlag,
} from './flag-spec.js';
import { formatFlagLines, formatHelp } from './flag-usage.js';

const table = {
  name: stringFlag({ name: 'name', usage: 'A name.', default: 'x' }),
  port: intFlag({ name: 'port', shorthand: 'p', usage: 'A port.', default: 80, min: 0, max: 65535 }),
  verbose: boolFlag({ name: 'verbose', shorthand: 'v', usage: 'Talk more.' }),
  quiet: boolFlag({ name: 'quiet', shorthand: 'q', usage: 'Talk less.' }),
  timeout: durationFlag({ name: 'request-timeout', usage: 'A timeout.', default: 60_000 }),
  servers: stringListFlag({ name: 'servers', usage: 'Servers.', default: ['a'] }),
  address: ipFlag({ name: 'address', usage: 'An IP.', default: '127.0.0.1' }),
  mode: enumFlag({ name: 'mode', usage: 'A mode.', values: ['fast', 'slow'] }),
  pairs: keyValueFlag({ name: 'pairs', usage: 'Pairs.' }),
  count: customFlag<number>({
    name: 'count',
    typeName: 'n',
    usage: 'Counts occurrences.',
    default: 0,
    parse: (_raw, previous) => previous + 1,
  }),
};

function parses(argv: string[]) {
  return parseFlags(table, argv);
}

function fails(argv: string[], code: string, message: string): void {
  assert.throws(
    () => parses(argv),
    (err: unknown) => {
      assert.ok(err instanceof FlagParseError, String(err));
      assert.equal(err.code, code);
      assert.equal(err.message, message);
      assert.ok(!err.message.includes('\n'));
      return true;
    },
  );
}

describe('parseFlags', () => {
  it('returns typed defaults when nothing is given', () => {
    const r = parses([]);
    assert.deepEqual(r.values, {
      name: 'x',
      port: 80,
      verbose: false,
      quiet: false,
      timeout: 60_000,
      servers: ['a'],
      address: '127.0.0.1',
      mode: 'fast',
      pairs: {},
      count: 0,
    });
    assert.equal(r.changed.size, 0);
    assert.equal(r.help, false);
  });

  const rows: { argv: string[]; expect: Record<string, unknown>; args?: string[] }[] = [
    { argv: ['--name=y'], expect: { name: 'y' } },
    { argv: ['--name', 'y'], expect: { name: 'y' } },
    { argv: ['--name='], expect: { name: '' } },
    { argv: ['--name', '--looks-like-a-flag'], expect: { name: '--looks-like-a-flag' } },
    { argv: ['--name=a=b'], expect: { name: 'a=b' } },
    { argv: ['--name=a', '--name=b'], expect: { name: 'b' } },
    { argv: ['--port=8080'], expect: { port: 8080 } },
    { argv: ['--port', '0x10'], expect: { port: 16 } },
    { argv: ['-p', '1'], expect: { port: 1 } },
    { argv: ['-p1'], expect: { port: 1 } },
    { argv: ['-p=2'], expect: { port: 2 } },
    { argv: ['--verbose'], expect: { verbose: true } },
    { argv: ['--verbose=false'], expect: { verbose: false } },
    { argv: ['--verbose=T'], expect: { verbose: true } },
    { argv: ['--verbose', 'false'], expect: { verbose: true }, args: ['false'] },
    { argv: ['-vq'], expect: { verbose: true, quiet: true } },
    { argv: ['-vp', '3'], expect: { verbose: true, port: 3 } },
    { argv: ['-vp3'], expect: { verbose: true, port: 3 } },
    { argv: ['--request-timeout=5m'], expect: { timeout: 300_000 } },
    { argv: ['--request-timeout', '1h30m'], expect: { timeout: 5_400_000 } },
    { argv: ['--request-timeout=500ms'], expect: { timeout: 500 } },
    { argv: ['--request-timeout=0'], expect: { timeout: 0 } },
    { argv: ['--servers=b,c'], expect: { servers: ['b', 'c'] } },
    { argv: ['--servers=b', '--servers', 'c,d'], expect: { servers: ['b', 'c', 'd'] } },
    { argv: ['--servers='], expect: { servers: [] } },
    { argv: ['--servers="x,y",z'], expect: { servers: ['x,y', 'z'] } },
    { argv: ['--address', ' ::1 '], expect: { address: '::1' } },
    { argv: ['--mode=slow'], expect: { mode: 'slow' } },
    { argv: ['--pairs=a=1,b', '--pairs', ' c = 3 '], expect: { pairs: { a: '1', b: '', c: '3' } } },
    { argv: ['--count=a', '--count=b', '--count=c'], expect: { count: 3 } },
    { argv: ['--request_timeout=1s'], expect: { timeout: 1000 } },
    { argv: ['pos1', '--name=y', 'pos2'], expect: { name: 'y' }, args: ['pos1', 'pos2'] },
    { argv: ['--name=y', '--', '--port=1', '-v'], expect: { name: 'y', port: 80 }, args: ['--port=1', '-v'] },
    { argv: ['-'], expect: {}, args: ['-'] },
  ];
  for (const row of rows) {
    it(row.argv.join(' '), () => {
      const r = parses(row.argv);
      for (const [k, v] of Object.entries(row.expect)) assert.deepEqual(r.values[k as keyof typeof table], v, k);
      assert.deepEqual(r.args, row.args ?? []);
    });
  }

  it('records which flags were given', () => {
    const r = parses(['--port=1', '--servers=a', 'x']);
    assert.deepEqual([...r.changed].sort(), ['port', 'servers']);
  });

  it('recognises --help and -h anywhere', () => {
    assert.equal(parses(['--port=1', '--help']).help, true);
    assert.equal(parses(['-h']).help, true);
    assert.equal(parses(['-vh']).help, true);
  });

  const errors: [string[], string, string][] = [
    [['--x'], 'UnknownFlag', 'unknown flag: --x'],
    [['--x=1'], 'UnknownFlag', 'unknown flag: --x'],
    [['-x'], 'UnknownFlag', "unknown shorthand flag: 'x' in -x"],
    [['-vx'], 'UnknownFlag', "unknown shorthand flag: 'x' in -vx"],
    [['-Port=1'], 'UnknownFlag', "unknown shorthand flag: 'P' in -Port=1"],
    [
      ['-port=1'],
      'InvalidArgument',
      'invalid argument "ort=1" for "-p, --port" flag: strconv.ParseInt: parsing "ort=1": invalid syntax',
    ],
    [['---port'], 'BadSyntax', 'bad flag syntax: ---port'],
    [['--=x'], 'BadSyntax', 'bad flag syntax: --=x'],
    [['--name'], 'MissingArgument', 'flag needs an argument: --name'],
    [['-p'], 'MissingArgument', "flag needs an argument: 'p' in -p"],
    [
      ['--port=abc'],
      'InvalidArgument',
      'invalid argument "abc" for "-p, --port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    [
      ['--port='],
      'InvalidArgument',
      'invalid argument "" for "-p, --port" flag: strconv.ParseInt: parsing "": invalid syntax',
    ],
    [
      ['--port=70000'],
      'InvalidArgument',
      'invalid argument "70000" for "-p, --port" flag: must be between 0 and 65535, inclusive',
    ],
    [
      ['--verbose=maybe'],
      'InvalidArgument',
      'invalid argument "maybe" for "-v, --verbose" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    [
      ['--request-timeout=5'],
      'InvalidArgument',
      'invalid argument "5" for "--request-timeout" flag: time: missing unit in duration "5"',
    ],
    [
      ['--request-timeout', 'soon'],
      'InvalidArgument',
      'invalid argument "soon" for "--request-timeout" flag: time: invalid duration "soon"',
    ],
    [['--address=abc'], 'InvalidArgument', 'invalid argument "abc" for "--address" flag: failed to parse IP: "abc"'],
    [['--mode=medium'], 'InvalidArgument', 'invalid argument "medium" for "--mode" flag: must be one of fast, slow'],
    [
      ['--servers=a"b'],
      'InvalidArgument',
      'invalid argument "a\\"b" for "--servers" flag: parse error on line 1, column 2: bare " in non-quoted-field',
    ],
  ];
  for (const [argv, code, message] of errors) {
    it(`rejects ${argv.join(' ')}`, () => fails(argv, code, message));
  }
});

describe('help text', () => {
  it('aligns flags the way pflag does, with non-zero defaults', () => {
    const text = formatFlagLines(Object.values(table));
    const lines = text.trimEnd().split('\n');
    assert.deepEqual(lines, [
      '      --address ip                 An IP. (default 127.0.0.1)',
      '      --count n                    Counts occurrences.',
      '      --mode string                A mode. (default "fast")',
      '      --name string                A name. (default "x")',
      '      --pairs mapStringString      Pairs.',
      '  -p, --port int                   A port. (default 80)',
      '  -q, --quiet                      Talk less.',
      '      --request-timeout duration   A timeout. (default 1m0s)',
      '      --servers strings            Servers. (default [a])',
      '  -v, --verbose                    Talk more.',
    ]);
  });

  it('indents continuation lines of a multi-line usage', () => {
    const text = formatFlagLines([stringFlag({ name: 'gates', usage: 'Options are:\nA=true|false\nB=true|false' })]);
    assert.equal(
      text,
      '      --gates string   Options are:\n                       A=true|false\n                       B=true|false\n',
    );
  });

  it('groups flags by section and adds --help', () => {
    const text = formatHelp({
      command: 'demo',
      table: {
        a: stringFlag({ name: 'a', usage: 'A.', section: 'First' }),
        b: durationFlag({ name: 'b', usage: 'B.', default: 5000, section: 'Second' }),
        c: boolFlag({ name: 'c', usage: 'C.', section: 'First' }),
      },
    });
    assert.equal(
      text,
      [
        'Usage:',
        '  demo [flags]',
        '',
        'First flags:',
        '',
        '      --a string   A.',
        '      --c          C.',
        '',
        'Second flags:',
        '',
        '      --b duration   B. (default 5s)',
        '',
        'Global flags:',
        '',
        '  -h, --help   help for demo',
        '',
      ].join('\n'),
    );
  });
});

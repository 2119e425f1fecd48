import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalizeSelection, isNameEnabled, selectNames } from './controller-selection.js';

const KNOWN = [
  { name: 'deployment-controller', aliases: ['deployment'], enabledByDefault: true },
  { name: 'replicaset-controller', aliases: ['replicaset'], enabledByDefault: true },
  { name: 'bootstrap-signer-controller', aliases: ['bootstrapsigner'], enabledByDefault: false },
  { name: 'token-cleaner-controller', aliases: ['tokencleaner'], enabledByDefault: false },
];

describe('controller selection (kube’s IsControllerEnabled)', () => {
  it('selects by each rule', () => {
    const cases: [string, string[], string[]][] = [
      ['* enables the default-enabled ones', ['*'], ['deployment-controller', 'replicaset-controller']],
      ['nothing listed enables nothing', [], []],
      ['a name enables it alone', ['bootstrap-signer-controller'], ['bootstrap-signer-controller']],
      [
        '* plus a default-off name',
        ['*', 'token-cleaner-controller'],
        ['deployment-controller', 'replicaset-controller', 'token-cleaner-controller'],
      ],
      ['-name disables a default one', ['*', '-deployment-controller'], ['replicaset-controller']],
      [
        'the first entry for a name wins (enable first)',
        ['deployment-controller', '-deployment-controller'],
        ['deployment-controller'],
      ],
      [
        'the first entry for a name wins (disable first)',
        ['-deployment-controller', '*', 'deployment-controller'],
        ['replicaset-controller'],
      ],
      ['* anywhere decides the unnamed ones', ['-replicaset-controller', '*'], ['deployment-controller']],
      [
        'aliases stand for their canonical name',
        ['*', '-deployment', 'bootstrapsigner'],
        ['replicaset-controller', 'bootstrap-signer-controller'],
      ],
      [
        'alias and canonical name: the first wins',
        ['-replicaset', 'replicaset-controller', '*'],
        ['deployment-controller'],
      ],
    ];
    for (const [name, list, expected] of cases) {
      const { enabled, problems } = selectNames(list, KNOWN);
      assert.deepEqual(enabled, expected, name);
      assert.deepEqual(problems, [], name);
    }
  });

  it('reports every unknown name in kube’s words and lists the known ones', () => {
    assert.deepEqual(selectNames(['*', 'foo', '-bar', 'deployment'], KNOWN).problems, [
      '"foo" is not in the list of known controllers',
      '"bar" is not in the list of known controllers',
      'known controllers: deployment-controller, replicaset-controller, bootstrap-signer-controller, token-cleaner-controller',
    ]);
    assert.deepEqual(selectNames(['x'], [{ name: 'hook', enabledByDefault: false }], 'webhooks').problems, [
      '"x" is not in the list of known webhooks',
      'known webhooks: hook',
    ]);
  });

  it('rewrites aliases to canonical names, keeping - and *', () => {
    assert.deepEqual(canonicalizeSelection(['*', '-deployment', 'tokencleaner', 'unknown'], KNOWN), [
      '*',
      '-deployment-controller',
      'token-cleaner-controller',
      'unknown',
    ]);
  });

  it('decides one name as IsControllerEnabled does', () => {
    assert.equal(isNameEnabled('a', false, ['*']), false);
    assert.equal(isNameEnabled('a', true, ['*']), true);
    assert.equal(isNameEnabled('a', false, ['b', 'a']), true);
    assert.equal(isNameEnabled('a', true, ['-a', 'a', '*']), false);
  });
});

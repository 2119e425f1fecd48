import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/crd-types.js';
import { calculateNames, usedNames } from './accepted-names.js';

function crd(name: string, names: object, accepted?: object, conditions?: object[]): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: { group: 'example.com', names },
    status: { acceptedNames: accepted, conditions: conditions as never },
  };
}

const none = { resources: new Set<string>(), kinds: new Set<string>() };

describe('accepted names of a CRD', () => {
  it('accepts fresh names and marks the CRD as installing', () => {
    const c = crd('widgets.example.com', {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      categories: ['all'],
    });
    const r = calculateNames(c, none);
    assert.deepEqual(r.acceptedNames, {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      categories: ['all'],
    });
    assert.deepEqual(r.namesAccepted, {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    assert.deepEqual(r.established, {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    });
  });

  const conflicts: { name: string; names: object; reason: string; message: string }[] = [
    {
      name: 'plural',
      names: { plural: 'gadgets', singular: 'x', kind: 'X', listKind: 'XList' },
      reason: 'PluralConflict',
      message: '"gadgets" is already in use',
    },
    {
      name: 'singular',
      names: { plural: 'xs', singular: 'gadget', kind: 'X', listKind: 'XList' },
      reason: 'SingularConflict',
      message: '"gadget" is already in use',
    },
    {
      name: 'short names',
      names: { plural: 'xs', singular: 'x', kind: 'X', listKind: 'XList', shortNames: ['gd', 'g2'] },
      reason: 'ShortNamesConflict',
      message: '["gd" is already in use, "g2" is already in use]',
    },
    {
      name: 'kind',
      names: { plural: 'xs', singular: 'x', kind: 'Gadget', listKind: 'XList' },
      reason: 'KindConflict',
      message: '"Gadget" is already in use',
    },
    {
      name: 'list kind',
      names: { plural: 'xs', singular: 'x', kind: 'X', listKind: 'GadgetList' },
      reason: 'ListKindConflict',
      message: '"GadgetList" is already in use',
    },
  ];
  const other = crd(
    'gadgets.example.com',
    {},
    {
      plural: 'gadgets',
      singular: 'gadget',
      shortNames: ['gd', 'g2'],
      kind: 'Gadget',
      listKind: 'GadgetList',
    },
  );
  for (const c of conflicts) {
    it(`reports a ${c.name} conflict with another CRD of the group, keeping what was accepted`, () => {
      const mine = crd('xs.example.com', c.names, { plural: 'old' });
      const r = calculateNames(mine, usedNames(mine, [mine, other], none));
      assert.equal(r.namesAccepted.status, 'False');
      assert.equal(r.namesAccepted.reason, c.reason);
      assert.equal(r.namesAccepted.message, c.message);
      assert.deepEqual(r.established, {
        type: 'Established',
        status: 'False',
        reason: 'NotAccepted',
        message: 'not all names are accepted',
      });
      if (c.reason === 'PluralConflict') assert.equal(r.acceptedNames.plural, 'old');
    });
  }

  it('reports a conflict with a resource the server serves itself', () => {
    const mine = crd('roles.example.com', { plural: 'roles', singular: 'role', kind: 'Role', listKind: 'RoleList' });
    const builtin = { resources: new Set(['roles', 'role']), kinds: new Set(['Role', 'RoleList']) };
    assert.equal(calculateNames(mine, usedNames(mine, [], builtin)).namesAccepted.reason, 'ListKindConflict');
  });

  it('keeps an established CRD established while a new name conflicts', () => {
    const established = {
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    };
    const mine = crd('xs.example.com', { plural: 'xs', kind: 'Gadget' }, { plural: 'xs', kind: 'X' }, [established]);
    const r = calculateNames(mine, usedNames(mine, [other], none));
    assert.equal(r.namesAccepted.reason, 'KindConflict');
    assert.deepEqual(r.established, established);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alignColumns } from './tab-writer.js';

describe('alignColumns', () => {
  const cases: { name: string; rows: string[][]; want: string }[] = [
    {
      name: 'padding 3 after the widest cell',
      rows: [
        ['NAME', 'AGE'],
        ['default', '5s'],
      ],
      want: 'NAME      AGE\ndefault   5s\n',
    },
    {
      name: 'minimum width 6',
      rows: [
        ['A', 'B'],
        ['x', 'y'],
      ],
      want: 'A     B\nx     y\n',
    },
    {
      name: 'the last cell is not padded',
      rows: [
        ['NAME', ''],
        ['a', ''],
      ],
      want: 'NAME   \na      \n',
    },
    {
      name: 'width counts characters, not bytes',
      rows: [
        ['ÄÖÜ', 'x'],
        ['abcdef', 'y'],
      ],
      want: 'ÄÖÜ      x\nabcdef   y\n',
    },
    { name: 'no rows', rows: [], want: '' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(alignColumns(c.rows), c.want));
  }

  it('remembers widths across calls (watch output) and widens them', () => {
    const widths: number[] = [];
    assert.equal(
      alignColumns(
        [
          ['NAME', 'AGE'],
          ['a', '1s'],
        ],
        widths,
      ),
      'NAME   AGE\na      1s\n',
    );
    assert.equal(alignColumns([['b', '2s']], widths), 'b      2s\n');
    assert.equal(alignColumns([['longer-name', '3s']], widths), 'longer-name   3s\n');
    assert.equal(alignColumns([['c', '4s']], widths), 'c             4s\n');
  });
});

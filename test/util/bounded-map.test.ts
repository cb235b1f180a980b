import assert from 'node:assert/strict';
import { BoundedMap } from '../../src/util/bounded-map';

describe('BoundedMap (the hot paths\' per-process memos)', () => {
  it('when full, then a new key pushes out the oldest written, and writing a key it holds pushes out nothing', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    map.set('a', 10);
    assert.deepEqual([...map], [['a', 10], ['b', 1], ['c', 2]], 'a held key is updated in place');
    map.set('d', 3);
    assert.deepEqual([...map.keys()], ['b', 'c', 'd']);
    for (let i = 0; i < 100; i++) map.set(`k${i}`, i);
    assert.equal(map.size, 3, 'never more than its capacity');
  });
});

import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/recent-map.js';

describe('RecentMap', () => {
  it('keeps the most recently used keys; get refreshes, peek does not', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1); // 'b' is now the least recent
    m.set('c', 3);
    expect([m.peek('a'), m.peek('b'), m.peek('c')]).toEqual([1, undefined, 3]);
    expect(m.peek('a')).toBe(1); // 'a' stays the least recent
    m.set('d', 4);
    expect([m.peek('a'), m.peek('c'), m.peek('d'), m.size]).toEqual([undefined, 3, 4, 2]);
    m.set('c', 30);
    expect([m.get('c'), m.size]).toEqual([30, 2]);
  });
});

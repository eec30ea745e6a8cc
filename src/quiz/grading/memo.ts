/**
 * A bounded memo for pure functions of a string: the same questions, expected answers and
 * words come back for every child, so their analysis is kept (oldest entries leave first).
 */
export function memoize<T>(fn: (key: string) => T, max = 5000): (key: string) => T {
  const cache = new Map<string, T>();
  return (key: string) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = fn(key);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
}

import { describe, expect, it } from 'vitest';
import { bindValues, rewritePlaceholders } from '../../src/db/sql-params.js';

describe('placeholder rewriting for PostgreSQL', () => {
  it('numbers ? in order and leaves quoted text, identifiers, comments and dollar quotes alone', () => {
    const s = rewritePlaceholders(
      `SELECT '?', 'it''s ?', E'\\'?', "odd?col", $$ ? $$, $tag$ @x ? $tag$, a::text /* ? /* ? */ */ FROM t WHERE a = ? AND b = ? -- ?\nAND c = ?`,
    );
    expect(s.text).toBe(
      `SELECT '?', 'it''s ?', E'\\'?', "odd?col", $$ ? $$, $tag$ @x ? $tag$, a::text /* ? /* ? */ */ FROM t WHERE a = $1 AND b = $2 -- ?\nAND c = $3`,
    );
    expect(s).toMatchObject({ kind: 'positional', count: 3 });
    expect(bindValues(s, ['x', 1, null])).toEqual(['x', 1, null]);
    expect(() => bindValues(s, ['x'])).toThrow(/Too few/);
    expect(() => bindValues(s, { a: 1 })).toThrow(/array/);
  });

  it('maps @name to one $n per distinct name, in first-use order', () => {
    const s = rewritePlaceholders('UPDATE t SET a = @a, b = @b_2 WHERE a <> @a AND j @> x AND e = user@host');
    expect(s.text).toBe('UPDATE t SET a = $1, b = $2 WHERE a <> $1 AND j @> x AND e = user@host');
    expect(s.names).toEqual(['a', 'b_2']);
    expect(bindValues(s, { b_2: 'B', a: 'A', extra: 1 })).toEqual(['A', 'B']);
    expect(() => bindValues(s, { a: 1 })).toThrow(/Missing named parameter "b_2"/);
  });

  it('refuses a statement that mixes the two kinds, and values for a statement without placeholders', () => {
    expect(() => rewritePlaceholders('SELECT ? , @a')).toThrow(/mixes/);
    const none = rewritePlaceholders('SELECT 1');
    expect(bindValues(none, undefined)).toEqual([]);
    expect(bindValues(none, [])).toEqual([]);
    expect(() => bindValues(none, [1])).toThrow(/Too many/);
  });
});

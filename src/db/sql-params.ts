import type { SqlParams } from './database.js';

/**
 * App SQL is written once with SQLite's placeholders (`?` positional, `@name` named); PostgreSQL
 * wants `$1, $2, …`. This rewrites the text once per distinct statement (cached by the caller)
 * and binds values on every call. Placeholders inside string literals, quoted identifiers,
 * dollar-quoted bodies and comments are left alone, so `'who?'` or `"@odd"` stay text.
 */
export interface PgStatement {
  /** the SQL with `$n` placeholders */
  text: string;
  /** `positional`: `?` only (count of them); `named`: the distinct names, in `$n` order */
  kind: 'none' | 'positional' | 'named';
  count: number;
  names: string[];
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_]/;

/** Rewrites `?` and `@name` to `$n`. Mixing the two in one statement is refused (SQLite refuses it too). */
export function rewritePlaceholders(sql: string): PgStatement {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  const index = new Map<string, number>();
  let i = 0;
  const n = sql.length;
  const isIdent = (c: string | undefined) => c !== undefined && IDENT_CHAR.test(c);
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "'") {
      // E'…' strings take backslash escapes; plain ones only doubled quotes
      const escapes = i > 0 && (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !isIdent(sql[i - 2]);
      let j = i + 1;
      while (j < n) {
        if (escapes && sql[j] === '\\') j += 2;
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
        else if (sql[j] === "'") break;
        else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && !(sql[j] === '"' && sql[j + 1] !== '"')) j += sql[j] === '"' ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? n : end;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (sql[j] === '/' && sql[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth--;
          j += 2;
        } else j++;
      }
      out += sql.slice(i, j);
      i = j;
    } else if (c === '$' && !isIdent(sql[i - 1]) && /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const j = end === -1 ? n : end + tag.length;
      out += sql.slice(i, j);
      i = j;
    } else if (c === '?') {
      positional++;
      out += `$${positional}`;
      i++;
    } else if (c === '@' && next !== undefined && IDENT_START.test(next) && !isIdent(sql[i - 1])) {
      let j = i + 1;
      while (j < n && isIdent(sql[j])) j++;
      const name = sql.slice(i + 1, j);
      let k = index.get(name);
      if (k === undefined) {
        names.push(name);
        k = names.length;
        index.set(name, k);
      }
      out += `$${k}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error('SQL mixes ? and @name placeholders; use one kind per statement');
  const kind = positional > 0 ? 'positional' : names.length > 0 ? 'named' : 'none';
  return { text: out, kind, count: positional || names.length, names };
}

/** The values for a rewritten statement, checked the way better-sqlite3 checks them. */
export function bindValues(stmt: PgStatement, params: SqlParams | undefined): unknown[] {
  if (stmt.kind === 'none') {
    if (Array.isArray(params) && params.length > 0) throw new RangeError('Too many parameter values were provided');
    return [];
  }
  if (stmt.kind === 'positional') {
    if (!Array.isArray(params)) throw new RangeError('This statement takes ? parameters: pass an array');
    if (params.length !== stmt.count) {
      throw new RangeError(params.length < stmt.count ? 'Too few parameter values were provided' : 'Too many parameter values were provided');
    }
    return params.map(toPg);
  }
  if (params === undefined || Array.isArray(params) || typeof params !== 'object') {
    throw new RangeError('This statement takes @name parameters: pass an object');
  }
  return stmt.names.map((name) => {
    if (!Object.hasOwn(params, name)) throw new RangeError(`Missing named parameter "${name}"`);
    return toPg(params[name]);
  });
}

/**
 * better-sqlite3 binds only numbers, strings, bigints, buffers and null; the same values reach
 * PostgreSQL unchanged, except undefined (null on both) and booleans, which SQLite refuses, so
 * app code never sends them: kept as 1/0 here so a stray one stores what SQLite schemas expect.
 */
function toPg(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return v.toString();
  return v;
}

import { afterEach, describe, expect, it } from 'vitest';
import { Db } from '../../src/db/database.js';

describe('the async SQLite data layer', () => {
  let db: Db;
  afterEach(() => db.close());

  function open(): Db {
    db = new Db(':memory:');
    db.raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    return db;
  }

  it('reads and writes with positional and named parameters', async () => {
    open();
    expect(await db.run('INSERT INTO t (name) VALUES (?)', ['a'])).toEqual({ changes: 1 });
    await db.run('INSERT INTO t (name) VALUES (@name)', { name: 'b' });
    expect(await db.all<{ name: string }>('SELECT name FROM t ORDER BY name')).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(await db.first('SELECT name FROM t WHERE name = ?', ['zzz'])).toBeUndefined();
    expect(await db.first('INSERT INTO t (name) VALUES (?) RETURNING id', ['c'])).toEqual({ id: 3 });
  });

  it('rolls a transaction back when it throws, savepoints included', async () => {
    open();
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (name) VALUES (?)', ['x']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (name) VALUES (?)', ['kept']);
      await tx.transaction(async (inner) => {
        await inner.run('INSERT INTO t (name) VALUES (?)', ['inner']);
        throw new Error('inner fails');
      }).catch(() => undefined);
    });
    expect(await db.all('SELECT name FROM t')).toEqual([{ name: 'kept' }]);
  });

  it('keeps queries from outside a transaction out of it while it awaits', async () => {
    open();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const tx = db.transaction(async (t) => {
      await t.run('INSERT INTO t (name) VALUES (?)', ['in-tx']);
      await gate;
      throw new Error('rolled back');
    });
    // a concurrent request writes while the transaction is open: it must not land inside it
    const outside = db.run('INSERT INTO t (name) VALUES (?)', ['outside']);
    release();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect(await db.all('SELECT name FROM t')).toEqual([{ name: 'outside' }]);
  });
});

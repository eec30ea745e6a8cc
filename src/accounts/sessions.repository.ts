import type { Database } from '../db/database.js';

/**
 * The account side of the sessions table (the express-session store in src/db/session-store.ts
 * reads and writes the rows): ending every session that belongs to an expert. The session is
 * JSON text; it is parsed here rather than with an engine's JSON functions, so the same SQL runs
 * on SQLite and PostgreSQL.
 */
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  /** Deletes the sessions whose `expertId` is the expert's (their own and their families' tablets). */
  async endForExpert(expertId: string): Promise<number> {
    // a cheap text pre-filter (the id appears in the JSON), then an exact check on the parsed value
    const needle = `%${JSON.stringify(expertId).slice(1, -1)}%`;
    const rows = await this.db.all<{ sid: string; sess: string }>('SELECT sid, sess FROM sessions WHERE sess LIKE ? ORDER BY sid', [needle]);
    let ended = 0;
    for (const row of rows) {
      if (sessionExpertId(row.sess) !== expertId) continue;
      ended += (await this.db.run('DELETE FROM sessions WHERE sid = ?', [row.sid])).changes;
    }
    return ended;
  }
}

function sessionExpertId(sess: string): unknown {
  try {
    return (JSON.parse(sess) as { expertId?: unknown }).expertId;
  } catch {
    return undefined;
  }
}

import type { Database } from '../db/database.js';

/** The health check's one query: proves the database answers (either engine). */
export async function pingDatabase(db: Database): Promise<void> {
  await db.first('SELECT 1 AS ok');
}

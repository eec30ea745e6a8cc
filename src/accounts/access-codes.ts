import { z } from 'zod';
import type { Database } from '../db/database.js';
import type { Secrets } from '../auth/secrets.js';
import { conflict } from '../http/errors.js';

export type CodeOwnerKind = 'expert' | 'parent';

/**
 * Access codes: at least 6 characters (a 6-digit code is easy on a tablet keypad and, with the
 * login throttle, far beyond guessing range), at most 64, no spaces. Leading/trailing spaces are
 * trimmed. Codes are case-sensitive.
 */
export const ACCESS_CODE_MIN_LENGTH = 6;
export const accessCodeSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(ACCESS_CODE_MIN_LENGTH, `must be at least ${ACCESS_CODE_MIN_LENGTH} characters`)
  .max(64, 'must be at most 64 characters')
  .regex(/^\S+$/, 'must not contain spaces');

/**
 * Stores codes as an HMAC (lookup key, unique across all experts and parents) plus an
 * AES-GCM ciphertext (to show a code back to its owner). The plain code is never stored.
 */
export class AccessCodes {
  constructor(
    private readonly db: Database,
    private readonly secrets: Secrets,
  ) {}

  /** Sets or replaces the owner's code; 409 when another account already uses it. */
  async set(kind: CodeOwnerKind, ownerId: string, code: string): Promise<void> {
    const hash = this.secrets.hash(code);
    await this.db.transaction(async (tx) => {
      const taken = await tx.first<{ owner_kind: string; owner_id: string }>(
        'SELECT owner_kind, owner_id FROM access_codes WHERE code_hash = ?',
        [hash],
      );
      if (taken && !(taken.owner_kind === kind && taken.owner_id === ownerId)) {
        throw conflict('This code is already in use. Please choose another one.', 'code_taken');
      }
      await tx.run('DELETE FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
      await tx.run('INSERT INTO access_codes (code_hash, code_enc, owner_kind, owner_id) VALUES (?, ?, ?, ?)', [
        hash,
        this.secrets.encrypt(code),
        kind,
        ownerId,
      ]);
    });
  }

  async find(code: string): Promise<{ kind: CodeOwnerKind; ownerId: string } | undefined> {
    const row = await this.db.first<{ owner_kind: CodeOwnerKind; owner_id: string }>(
      'SELECT owner_kind, owner_id FROM access_codes WHERE code_hash = ?',
      [this.secrets.hash(code.trim())],
    );
    return row ? { kind: row.owner_kind, ownerId: row.owner_id } : undefined;
  }

  async reveal(kind: CodeOwnerKind, ownerId: string): Promise<string | null> {
    const row = await this.db.first<{ code_enc: string }>('SELECT code_enc FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
    return row ? this.secrets.decrypt(row.code_enc) : null;
  }

  async has(kind: CodeOwnerKind, ownerId: string): Promise<boolean> {
    return (await this.db.first('SELECT 1 AS one FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId])) !== undefined;
  }

  async remove(kind: CodeOwnerKind, ownerId: string): Promise<void> {
    await this.db.run('DELETE FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
  }
}

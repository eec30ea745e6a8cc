import { z } from 'zod';
import type { Db } from '../db/database.js';
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
    private readonly db: Db,
    private readonly secrets: Secrets,
  ) {}

  /** Sets or replaces the owner's code; 409 when another account already uses it. */
  set(kind: CodeOwnerKind, ownerId: string, code: string): void {
    const hash = this.secrets.hash(code);
    this.db.transactionSync(() => {
      const taken = this.db.firstSync<{ owner_kind: string; owner_id: string }>(
        'SELECT owner_kind, owner_id FROM access_codes WHERE code_hash = ?',
        [hash],
      );
      if (taken && !(taken.owner_kind === kind && taken.owner_id === ownerId)) {
        throw conflict('This code is already in use. Please choose another one.', 'code_taken');
      }
      this.db.runSync('DELETE FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
      this.db.runSync('INSERT INTO access_codes (code_hash, code_enc, owner_kind, owner_id) VALUES (?, ?, ?, ?)', [
        hash,
        this.secrets.encrypt(code),
        kind,
        ownerId,
      ]);
    });
  }

  find(code: string): { kind: CodeOwnerKind; ownerId: string } | undefined {
    const row = this.db.firstSync<{ owner_kind: CodeOwnerKind; owner_id: string }>(
      'SELECT owner_kind, owner_id FROM access_codes WHERE code_hash = ?',
      [this.secrets.hash(code.trim())],
    );
    return row ? { kind: row.owner_kind, ownerId: row.owner_id } : undefined;
  }

  reveal(kind: CodeOwnerKind, ownerId: string): string | null {
    const row = this.db.firstSync<{ code_enc: string }>('SELECT code_enc FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
    return row ? this.secrets.decrypt(row.code_enc) : null;
  }

  has(kind: CodeOwnerKind, ownerId: string): boolean {
    return this.db.firstSync('SELECT 1 FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]) !== undefined;
  }

  remove(kind: CodeOwnerKind, ownerId: string): void {
    this.db.runSync('DELETE FROM access_codes WHERE owner_kind = ? AND owner_id = ?', [kind, ownerId]);
  }
}

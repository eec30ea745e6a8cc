import crypto from 'node:crypto';

/**
 * Keys derived from the server secret (SESSION_SECRET or DATA_DIR/secret.key, never stored in
 * the database): one for keyed hashes of access codes (lookup without the plain code), one for
 * AES-256-GCM encryption of codes that must be shown back to their owner.
 */
export class Secrets {
  private readonly hmacKey: Buffer;
  private readonly encKey: Buffer;

  constructor(serverSecret: string) {
    const ikm = Buffer.from(serverSecret, 'utf8');
    this.hmacKey = Buffer.from(crypto.hkdfSync('sha256', ikm, Buffer.alloc(0), 'kvq access-code lookup v1', 32));
    this.encKey = Buffer.from(crypto.hkdfSync('sha256', ikm, Buffer.alloc(0), 'kvq access-code encryption v1', 32));
  }

  /** Keyed hash (HMAC-SHA256, hex) of a value: access codes, throttle keys. */
  hash(value: string): string {
    return crypto.createHmac('sha256', this.hmacKey).update(value, 'utf8').digest('hex');
  }

  /** Constant-time comparison of two secrets of any length. */
  equal(a: string, b: string): boolean {
    return crypto.timingSafeEqual(Buffer.from(this.hash(a), 'hex'), Buffer.from(this.hash(b), 'hex'));
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.encKey, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
  }

  /** null when the value cannot be decrypted (for example after the server secret changed). */
  decrypt(encoded: string): string | null {
    try {
      const buf = Buffer.from(encoded, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.encKey, buf.subarray(0, 12));
      decipher.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** Random digits from a CSPRNG, for generated access codes (easy to type on a tablet keypad). */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) out += crypto.randomInt(0, 10).toString();
  return out;
}

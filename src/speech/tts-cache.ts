import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeAtomic } from '../pipeline/files.js';

/**
 * Synthesized speech on disk, keyed by a hash of everything that shapes the sound (provider,
 * model, voice, speed, format, text): the same questions and praise are spoken again and again,
 * so most requests skip the provider. Files are written atomically; when the cache grows past
 * its budget the least recently used files go first.
 */
export class TtsCache {
  private writesSincePrune = 0;

  constructor(
    readonly dir: string,
    private readonly maxBytes = 100 * 1024 * 1024,
  ) {}

  static key(parts: Record<string, string | number>): string {
    return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  private file(key: string, ext: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.${ext}`);
  }

  get(key: string, ext: string): Buffer | undefined {
    const f = this.file(key, ext);
    try {
      const data = fs.readFileSync(f);
      const now = new Date();
      fs.utimesSync(f, now, now);
      return data;
    } catch {
      return undefined;
    }
  }

  put(key: string, ext: string, data: Buffer): void {
    const f = this.file(key, ext);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    writeAtomic(f, data);
    if (++this.writesSincePrune >= 50) this.prune();
  }

  /** Removes the least recently used files until the cache fits its budget; leftovers of crashed writes too. */
  prune(): void {
    this.writesSincePrune = 0;
    const files: { f: string; size: number; used: number }[] = [];
    let total = 0;
    let subdirs: string[];
    try {
      subdirs = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const sub of subdirs) {
      const d = path.join(this.dir, sub);
      let names: string[];
      try {
        names = fs.readdirSync(d);
      } catch {
        continue;
      }
      for (const name of names) {
        const f = path.join(d, name);
        try {
          const st = fs.statSync(f);
          if (name.endsWith('.tmp') && Date.now() - st.mtimeMs > 60_000) {
            fs.rmSync(f, { force: true });
            continue;
          }
          files.push({ f, size: st.size, used: st.mtimeMs });
          total += st.size;
        } catch {
          // removed meanwhile
        }
      }
    }
    files.sort((a, b) => a.used - b.used);
    for (const file of files) {
      if (total <= this.maxBytes) break;
      fs.rmSync(file.f, { force: true });
      total -= file.size;
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { safeJoin } from '../http/ids.js';
import {
  assertKey,
  assertPrefix,
  foldedByDelimiter,
  MediaStoreBase,
  RangeNotSatisfiable,
  type ByteRange,
  type ListOptions,
  type MediaRead,
  type MediaStat,
  type MediaStore,
} from './media-store.js';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR';
const rand = () => crypto.randomBytes(6).toString('hex');

/**
 * Media under DATA_DIR, in today's layout (key `videos/<id>/video.mp4` is the file
 * DATA_DIR/videos/<id>/video.mp4). Temp files and folders are dot-names beside their target,
 * which no key can name (every key segment starts with a letter or digit), so they are never
 * listed or served; a crash leaves only dot-names, swept at the next start.
 */
export class LocalMediaStore extends MediaStoreBase implements MediaStore {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {
    super();
  }

  private file(key: string): string {
    return safeJoin(this.root, ...assertKey(key).split('/'));
  }

  private dir(prefix: string): string {
    return safeJoin(this.root, ...assertPrefix(prefix).split('/').filter(Boolean));
  }

  async putFile(key: string, file: string, opts: { move?: boolean } = {}): Promise<void> {
    const target = this.file(key);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (opts.move) {
      try {
        fs.renameSync(file, target); // atomic on one file system
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${rand()}.tmp`);
    try {
      await fs.promises.copyFile(file, tmp);
      fs.renameSync(tmp, target);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    if (opts.move) fs.rmSync(file, { force: true });
  }

  async putBuffer(key: string, data: Buffer | string): Promise<void> {
    const target = this.file(key);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${rand()}.tmp`);
    try {
      await fs.promises.writeFile(tmp, data);
      fs.renameSync(tmp, target);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.file(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async download(key: string, file: string): Promise<boolean> {
    try {
      await fs.promises.copyFile(this.file(key), file);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const st = await fs.promises.stat(this.file(key));
      return st.isFile() ? { size: st.size, lastModified: st.mtime, etag: `W/"${st.size.toString(16)}-${st.mtimeMs.toString(16)}"` } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<MediaRead | null> {
    const st = await this.stat(key);
    if (!st) return null;
    if (!range) return { ...st, body: fs.createReadStream(this.file(key)) };
    if (range.start < 0 || range.start > range.end || range.start >= st.size) throw new RangeNotSatisfiable(st.size);
    const r = { start: range.start, end: Math.min(range.end, st.size - 1) };
    return { ...st, range: r, body: fs.createReadStream(this.file(key), r) };
  }

  async delete(key: string): Promise<void> {
    fs.rmSync(this.file(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = this.dir(prefix);
    const n = (await this.list(prefix)).length;
    if (!fs.existsSync(dir)) return 0;
    // a dot-name first: nothing serves or lists it from then on, even if the removal is cut short
    const trash = path.join(path.dirname(dir), `.deleted-${path.basename(dir)}-${rand()}`);
    fs.renameSync(dir, trash);
    fs.rmSync(trash, { recursive: true, force: true });
    return n;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<string[]> {
    const dir = this.dir(prefix);
    const folded = (relKey: string) => foldedByDelimiter(prefix, relKey, opts.delimiter);
    const out: string[] = [];
    const walk = (d: string, rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(d, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        // a folder whose path already holds the delimiter is folded whole: not walked at all
        if (e.isDirectory()) {
          if (!folded(`${rel}${e.name}/`)) walk(path.join(d, e.name), `${rel}${e.name}/`);
        } else if (e.isFile() && !folded(`${rel}${e.name}`)) out.push(`${rel}${e.name}`);
      }
    };
    walk(dir, prefix);
    return out
      .filter((k) => {
        try {
          return assertKey(k) === k;
        } catch {
          return false;
        }
      })
      .sort();
  }

  async replacePrefix(prefix: string, dir: string, _last: readonly string[] = []): Promise<void> {
    const target = this.dir(prefix);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const staged = path.join(path.dirname(target), `.${path.basename(target)}-new-${rand()}`);
    const old = path.join(path.dirname(target), `.${path.basename(target)}-old-${rand()}`);
    try {
      fs.renameSync(dir, staged);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      fs.cpSync(dir, staged, { recursive: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
    try {
      if (fs.existsSync(target)) fs.renameSync(target, old);
      fs.renameSync(staged, target);
    } catch (err) {
      if (!fs.existsSync(target) && fs.existsSync(old)) fs.renameSync(old, target);
      throw err;
    } finally {
      fs.rmSync(staged, { recursive: true, force: true });
      fs.rmSync(old, { recursive: true, force: true });
    }
  }

  localPath(key: string): string {
    return this.file(key);
  }

  location(keyOrPrefix: string): string {
    return keyOrPrefix.endsWith('/') ? this.dir(keyOrPrefix) : this.file(keyOrPrefix);
  }

  close(): void {}
}

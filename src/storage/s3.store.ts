import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { serviceUnavailable } from '../http/errors.js';
import {
  assertKey,
  assertPrefix,
  contentTypeOf,
  MediaStoreBase,
  RangeNotSatisfiable,
  type ByteRange,
  type ListOptions,
  type MediaRead,
  type MediaStat,
  type MediaStore,
} from './media-store.js';

export interface S3StoreOptions {
  bucket: string;
  /** an S3-compatible server's URL; empty = AWS */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** keys live under this folder of the bucket ("" or "school-a/") */
  prefix?: string;
  /**
   * Keys per ListObjectsV2 page (MaxKeys, 1-1000; S3's default 1000 when unset). Tests use a small
   * page to walk the continuation tokens with a few keys; a server that caps pages lower is covered
   * by the same loop.
   */
  listPageSize?: number;
}

/** Multipart above this size (videos); below, one PUT. 8 MiB parts, 4 at a time. */
const PART_SIZE = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 4;
/** objects written or deleted at once when a folder of frames is replaced */
const BATCH = 8;

type S3Error = Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
const status = (err: unknown) => (err as S3Error).$metadata?.httpStatusCode;
const isMissing = (err: unknown) => status(err) === 404 || ['NoSuchKey', 'NotFound'].includes((err as S3Error).name);

/**
 * A bucket that cannot be reached or refuses us (network, credentials, 5xx) is a 503 with a
 * stable code for every caller (media routes, frames, generation), never a 500; "no such key"
 * (404) and "range not satisfiable" (416) pass through for the store's own handling.
 */
function unavailable(err: unknown): unknown {
  if (isMissing(err) || status(err) === 416) return err;
  const why = (err as S3Error).name && (err as S3Error).name !== 'Error' ? `${(err as S3Error).name}: ${(err as Error).message}` : (err as Error).message;
  return serviceUnavailable(`The media storage (S3 bucket) could not be used: ${why}`, 'storage_unavailable');
}

/**
 * Media in an S3-compatible bucket through the AWS SDK v3. Credentials come from the SDK's usual
 * chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, an instance role). Videos go up with
 * lib-storage's Upload (multipart for big files, so a 1 GB video never sits in memory).
 */
export class S3MediaStore extends MediaStoreBase implements MediaStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly listPageSize: number | undefined;

  /** client.send with the errors mapped by unavailable() */
  private readonly send = (async (command: never) => {
    try {
      return await this.client.send(command);
    } catch (err) {
      throw unavailable(err);
    }
  }) as S3Client['send'];

  private async guard<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (err) {
      throw unavailable(err);
    }
  }

  constructor(o: S3StoreOptions) {
    super();
    this.client = new S3Client({ region: o.region, ...(o.endpoint ? { endpoint: o.endpoint } : {}), forcePathStyle: o.forcePathStyle });
    this.bucket = o.bucket;
    this.prefix = o.prefix ? assertPrefix(o.prefix.replace(/^\/+/, '').replace(/\/*$/, '/')) : '';
    if (o.listPageSize !== undefined && !(Number.isInteger(o.listPageSize) && o.listPageSize >= 1 && o.listPageSize <= 1000)) {
      throw new RangeError(`listPageSize must be an integer from 1 to 1000, not ${o.listPageSize}`);
    }
    this.listPageSize = o.listPageSize;
  }

  private full(key: string): string {
    return this.prefix + assertKey(key);
  }

  async putFile(key: string, file: string, opts: { move?: boolean } = {}): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.full(key), Body: fs.createReadStream(file), ContentType: contentTypeOf(key) },
      partSize: PART_SIZE,
      queueSize: UPLOAD_QUEUE,
      leavePartsOnError: false,
    });
    await this.guard(upload.done());
    if (opts.move) fs.rmSync(file, { force: true });
  }

  async putBuffer(key: string, data: Buffer | string): Promise<void> {
    const body = typeof data === 'string' ? Buffer.from(data) : data;
    await this.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.full(key), Body: body, ContentType: contentTypeOf(key) }));
  }

  private async get(key: string, range?: ByteRange): Promise<GetObjectCommandOutput | null> {
    try {
      return await this.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.full(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer | null> {
    const r = await this.get(key);
    return r ? Buffer.from(await r.Body!.transformToByteArray()) : null;
  }

  async download(key: string, file: string): Promise<boolean> {
    const r = await this.get(key);
    if (!r) return false;
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    try {
      await this.guard(pipeline(r.Body as Readable, fs.createWriteStream(tmp)));
      fs.renameSync(tmp, file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    return true;
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const h = await this.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
      return { size: h.ContentLength ?? 0, etag: h.ETag, lastModified: h.LastModified };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<MediaRead | null> {
    let r: GetObjectCommandOutput | null;
    try {
      r = await this.get(key, range);
    } catch (err) {
      if (status(err) !== 416) throw err;
      const st = await this.stat(key);
      if (!st) return null;
      throw new RangeNotSatisfiable(st.size);
    }
    if (!r) return null;
    // "bytes 0-99/1234": the total size is after the slash
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(r.ContentRange ?? '');
    const size = m ? Number(m[3]) : (r.ContentLength ?? 0);
    return {
      size,
      etag: r.ETag,
      lastModified: r.LastModified,
      body: r.Body as Readable,
      ...(range && m ? { range: { start: Number(m[1]), end: Number(m[2]) } } : {}),
    };
  }

  async delete(key: string): Promise<void> {
    await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.list(prefix);
    await this.deleteKeys(keys);
    return keys.length;
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      const r = await this.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: chunk.map((k) => ({ Key: this.full(k) })), Quiet: true } }));
      if (r.Errors?.length) throw new Error(`could not delete ${r.Errors.length} objects, e.g. ${r.Errors[0]!.Key}: ${r.Errors[0]!.Message}`);
    }
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<string[]> {
    const full = this.prefix + assertPrefix(prefix);
    const out: string[] = [];
    let token: string | undefined;
    do {
      // with a Delimiter the folded keys come back as CommonPrefixes, which we do not need
      const page = await this.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: full,
          ContinuationToken: token,
          ...(opts.delimiter ? { Delimiter: opts.delimiter } : {}),
          ...(this.listPageSize ? { MaxKeys: this.listPageSize } : {}),
        }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  async replacePrefix(prefix: string, dir: string, last: readonly string[] = []): Promise<void> {
    assertPrefix(prefix);
    const before = await this.list(prefix);
    const names = fs.readdirSync(dir).filter((n) => !n.startsWith('.') && fs.statSync(path.join(dir, n)).isFile());
    const first = names.filter((n) => !last.includes(n));
    for (let i = 0; i < first.length; i += BATCH) {
      await Promise.all(first.slice(i, i + BATCH).map((n) => this.putFile(`${prefix}${n}`, path.join(dir, n))));
    }
    for (const n of last) if (names.includes(n)) await this.putFile(`${prefix}${n}`, path.join(dir, n));
    const fresh = new Set(names.map((n) => `${prefix}${n}`));
    await this.deleteKeys(before.filter((k) => !fresh.has(k)));
    fs.rmSync(dir, { recursive: true, force: true });
  }

  localPath(): null {
    return null;
  }

  location(keyOrPrefix: string): string {
    return `s3://${this.bucket}/${keyOrPrefix.endsWith('/') ? this.prefix + assertPrefix(keyOrPrefix) : this.full(keyOrPrefix)}`;
  }

  close(): void {
    this.client.destroy();
  }
}

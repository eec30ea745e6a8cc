import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { LocalMediaStore, S3MediaStore, type MediaStore } from '../../src/storage/index.js';

const S3RVER_SCRIPT = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

/**
 * A real S3 API on 127.0.0.1 (s3rver in a child process, serving a bucket from a temp folder)
 * for the media-store tests. The AWS SDK reads its credentials and checksum mode from the
 * environment (the usual chain, as in production): s3rver accepts S3RVER/S3RVER, and it stores a
 * streamed PutObject with the SDK's default trailing checksum corrupted (NOTES.md), so checksums
 * only when required.
 */
export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** the S3_* settings that point the app at this bucket */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'kvq-media'): Promise<TestBucket> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
  process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-s3rver-'));
  // its own process (s3rver-process.mjs says why it needs --openssl-legacy-provider), so listings
  // of more than one page work, and the bucket's work does not share the test's event loop
  const child = spawn(process.execPath, ['--openssl-legacy-provider', S3RVER_SCRIPT, directory, bucket], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { port: number }).port);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it listened`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The two stores for a `describe.each` over both: a new local store in a fresh folder under
 * `tmp()`, or a store on the test bucket under a fresh prefix (so cases never see each other's
 * keys). Getters, because the folder and the bucket are made in beforeAll.
 */
export function bothStores(tmp: () => string, bucket: () => TestBucket): [string, () => MediaStore][] {
  return [
    ['LocalMediaStore', () => new LocalMediaStore(fs.mkdtempSync(path.join(tmp(), 'data-')))],
    [
      'S3MediaStore',
      () =>
        new S3MediaStore({
          bucket: bucket().bucket,
          endpoint: bucket().endpoint,
          region: 'us-east-1',
          forcePathStyle: true,
          prefix: `run-${crypto.randomBytes(4).toString('hex')}/`,
        }),
    ],
  ];
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.js';
import { makeClip } from '../fixtures/media.js';
import { createTestDatabase } from '../helpers/pg-cluster.js';
import type { InstanceProcess } from '../helpers/instance-process.js';
import { startS3rver, type TestBucket } from '../storage/s3rver.js';
import { filesUnder, isMediaFile, startDistrict, stopInstances, Tablet, waitForJob } from './tablet.js';

/**
 * Issue #18's shape of a district: two web instances (JOB_CONCURRENCY=0, they only enqueue) and
 * one `worker` process, all real processes, on one PostgreSQL database and one S3 bucket
 * (s3rver). Consecutive requests go to different instances, as behind a load balancer.
 */
const pgUrl = inject('pgUrl');
const ADMIN_PASSWORD = 'multi-instance-admin-pw';

let db: { url: string; drop(): Promise<void> };
let s3: TestBucket;
let fx: FixtureServer;
let root: string;
let a: InstanceProcess;
let b: InstanceProcess;
let worker: InstanceProcess;

describe.skipIf(!pgUrl)('two web instances and a worker on one PostgreSQL database and one bucket', () => {
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-multi-'));
    makeClip(path.join(root, 'clip.mp4'), { seconds: 3 });
    fx = await startFixtureServer(root);
    s3 = await startS3rver('kvq-multi'); // also sets the AWS_* credentials the processes inherit
    db = await createTestDatabase(pgUrl, 'multi');
    const env = {
      DATABASE_URL: db.url,
      ...s3.env,
      ADMIN_PASSWORD,
      DOWNLOAD_EXTRA_HOSTS: '127.0.0.1',
      DOWNLOAD_AUTH_MODE: 'none',
      JOB_HEARTBEAT_SECONDS: '2',
      JOB_HEARTBEAT_TIMEOUT_SECONDS: '10',
    };
    ({ a, b, worker } = await startDistrict(env));
  }, 180_000);

  afterAll(async () => {
    await stopInstances([a, b, worker]);
    await db?.drop();
    await s3?.close();
    await fx?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps a session made on one instance on the other, and a logout on one ends it on both', async () => {
    const admin = new Tablet();
    expect((await admin.call(a, 'POST', '/api/admin/verify-access', { json: { password: ADMIN_PASSWORD } })).status).toBe(200);
    expect((await admin.call(b, 'GET', '/api/me')).body).toMatchObject({ role: 'admin' });
    expect((await admin.call(b, 'POST', '/api/admin/logout')).status).toBe(200);
    expect((await admin.call(a, 'GET', '/api/me')).body).not.toMatchObject({ role: 'admin' });
  });

  it('has a download enqueued on one instance done by the worker, reported by the other, and its media served with Range by either', async () => {
    const admin = new Tablet();
    await admin.call(b, 'POST', '/api/admin/verify-access', { json: { password: ADMIN_PASSWORD } });
    const queued = await admin.call(a, 'POST', '/api/download', { form: { url: `${fx.url}/clip.mp4` }, headers: { prefer: 'respond-async' } });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const jobId = String(queued.body.job_id);
    const job = await waitForJob(admin, [b, a], jobId);
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    const source = fs.readFileSync(path.join(root, 'clip.mp4'));
    for (const inst of [a, b]) {
      const part = await admin.call(inst, 'GET', '/media/videos/clip/video', { headers: { range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-99/${source.length}`);
      expect(Buffer.compare(part.body, source.subarray(0, 100))).toBe(0);
    }
    // nothing of a video stays in any instance's DATA_DIR (the worker processed it in a temp folder)
    for (const inst of [a, b, worker]) {
      expect(filesUnder(inst.dataDir).filter(isMediaFile)).toEqual([]);
    }
  });

  it('loses no acknowledged write when one instance is killed, and the other keeps answering', async () => {
    const admin = new Tablet();
    await admin.call(a, 'POST', '/api/admin/verify-access', { json: { password: ADMIN_PASSWORD } });
    const acknowledged: string[] = [];
    const create = async (inst: InstanceProcess, id: string) => {
      try {
        const res = await admin.call(inst, 'POST', '/api/admin/experts', { json: { expert_id: id, display_name: `Expert ${id}`, password: `code-${id}-secret` } });
        if (res.status === 200) acknowledged.push(id);
      } catch {
        // the connection died with the instance: not acknowledged, so nothing was promised
      }
    };
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      writes.push(create(i % 2 ? a : b, `kill-${i}`));
      if (i === 20) a.proc.kill('SIGKILL');
    }
    await Promise.all(writes);
    // A is really gone (its own process, not a wrapper around it) and answers nothing any more
    expect(await a.stop()).toBe('SIGKILL');
    await expect(fetch(`${a.url}/api/health`)).rejects.toThrow();
    // B keeps answering, reads see every acknowledged write, and B still takes new writes
    const list = await admin.call(b, 'GET', '/api/admin/experts');
    expect(list.status).toBe(200);
    const ids = new Set(((list.body.experts ?? []) as { expert_id: string }[]).map((e) => e.expert_id));
    for (const id of acknowledged) expect(ids.has(id), `acknowledged ${id} is missing`).toBe(true);
    expect(acknowledged.filter((id) => Number(id.split('-')[1]) % 2 === 0)).toHaveLength(20); // every write to B was acknowledged
    await create(b, 'after-kill');
    expect(acknowledged).toContain('after-kill');
  });
});

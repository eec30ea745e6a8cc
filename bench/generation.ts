/**
 * Generation throughput: 20 segments through the real app, WebSocket and OpenAI SDK against the
 * fake provider with 1 s latency per call. The baseline is the same run with
 * GENERATION_CONCURRENCY=1 (sequential), measured in this process.
 * Run: npx tsx bench/generation.ts   (or npm run bench generation)
 */
import WebSocket from 'ws';
import { startTempApp } from '../test/helpers/temp-app.js';
import { FakeProvider } from '../test/fake-provider/server.js';
import { addVideo } from '../test/questions/fixtures.js';

const SEGMENTS = 20;
const INTERVAL = 10;
const LATENCY_MS = 1000;
const PASSWORD = 'bench-admin-password';

interface Measure {
  wallMs: number;
  firstResultMs: number;
  results: number;
  maxInFlight: number;
}

async function measure(fake: FakeProvider, concurrency: number): Promise<Measure> {
  const app = await startTempApp({
    ADMIN_PASSWORD: PASSWORD, ...fake.env(), QUESTION_PROVIDER: 'openai', GENERATION_CONCURRENCY: String(concurrency),
  });
  const { db, dataDir } = app;
  const base = (await app.listen()).replace('http://', '');
  try {
    await addVideo(db, dataDir, { id: 'benchvideo1', seconds: SEGMENTS * INTERVAL });
    const login = await fetch(`http://${base}/api/admin/verify-access`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: PASSWORD }),
    });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    fake.reset();
    fake.delayMs = LATENCY_MS;
    const ws = new WebSocket(`ws://${base}/ws/questions/benchvideo1`, { headers: { cookie } });
    await new Promise<void>((r, j) => ws.once('open', () => r()).once('error', j));
    const started = performance.now();
    let firstResultMs = -1;
    let results = 0;
    ws.on('message', (data) => {
      const e = JSON.parse(data.toString());
      if (e.type === 'segment_result') {
        results++;
        if (firstResultMs < 0) firstResultMs = performance.now() - started;
      }
    });
    const closed = new Promise<void>((r) => ws.once('close', () => r()));
    ws.send(JSON.stringify({ start_seconds: 0, interval_seconds: INTERVAL, full_duration: true }));
    await closed;
    return { wallMs: performance.now() - started, firstResultMs, results, maxInFlight: fake.maxInFlight };
  } finally {
    await app.close();
  }
}

const fake = await FakeProvider.start();
try {
  const concurrency = Number(process.env.GENERATION_CONCURRENCY ?? 4);
  const seq = await measure(fake, 1);
  const par = await measure(fake, concurrency);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`segments: ${SEGMENTS}, provider latency: ${LATENCY_MS} ms per call (fake OpenAI server, real SDK)`);
  console.log(`sequential (GENERATION_CONCURRENCY=1): wall ${s(seq.wallMs)}, first segment_result ${s(seq.firstResultMs)}, results ${seq.results}`);
  console.log(`concurrent (GENERATION_CONCURRENCY=${concurrency}): wall ${s(par.wallMs)}, first segment_result ${s(par.firstResultMs)}, results ${par.results}, max calls in flight ${par.maxInFlight}`);
  console.log(`ratio wall concurrent / sequential: ${(par.wallMs / seq.wallMs).toFixed(3)} (ideal ${(Math.ceil(SEGMENTS / concurrency) / SEGMENTS).toFixed(3)})`);
  console.log(`time to first segment_result / latency: ${(par.firstResultMs / LATENCY_MS).toFixed(2)}`);
  if (seq.results !== SEGMENTS || par.results !== SEGMENTS) process.exitCode = 1;
} finally {
  await fake.close();
}

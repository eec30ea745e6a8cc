/**
 * Start to listening, and memory once listening, of the service run from TypeScript through tsx
 * (the old `npm start`, now `npm run serve`) against the built code (`node dist/server.js`,
 * NODE_ENV=production, what `npm start` runs):
 *   npx tsx bench/start.ts [--runs=5]
 * Builds dist/ first. Each run starts on a fresh data folder with the sample import and demo seed
 * off (so only start-up is measured), alternating the two ways so a busy moment lands on both.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);

interface Way {
  name: string;
  args: string[];
  nodeEnv?: string;
}

const ways: Way[] = [
  { name: 'tsx src/server.ts (before)', args: ['--import', 'tsx', path.join(ROOT, 'src', 'server.ts')] },
  { name: 'node dist/server.js, production', args: ['--enable-source-maps', path.join(ROOT, 'dist', 'server.js')], nodeEnv: 'production' },
];

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
  const samples = ways.map(() => ({ ms: [] as number[], rssMb: [] as number[] }));
  await once(ways[0]!); // warm the file cache for both
  await once(ways[1]!);
  for (let r = 0; r < RUNS; r++) {
    for (const [i, way] of ways.entries()) {
      const s = await once(way);
      samples[i]!.ms.push(s.ms);
      samples[i]!.rssMb.push(s.rssMb);
    }
  }
  console.log(`start to listening, ${RUNS} runs each, ${os.cpus().length} cores (median, min-max)`);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  ways.forEach((way, i) => {
    const { ms, rssMb } = samples[i]!;
    console.log(`${way.name.padEnd(34)} ${med(ms).toFixed(0).padStart(5)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)})   RSS ${med(rssMb).toFixed(0)} MB`);
  });
  const [before, after] = samples as [{ ms: number[]; rssMb: number[] }, { ms: number[]; rssMb: number[] }];
  console.log(`\nbuilt / tsx: start time ${(med(after.ms) / med(before.ms)).toFixed(2)}x, memory ${(med(after.rssMb) / med(before.rssMb)).toFixed(2)}x`);
}

/** One start: spawn, wait for the "listening" log line, read VmRSS, SIGTERM, wait for exit. */
async function once(way: Way): Promise<{ ms: number; rssMb: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-bench-start-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-start', DEMO_SEED: 'false', SAMPLE_IMPORT: 'false' };
  if (way.nodeEnv) env.NODE_ENV = way.nodeEnv;
  const t0 = performance.now();
  const proc = spawn(process.execPath, way.args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      let out = '';
      proc.on('exit', (code) => reject(new Error(`${way.name} exited with ${code}`)));
      proc.stdout.on('data', (d) => {
        out += d;
        if (out.includes('"listening"')) resolve(performance.now() - t0);
      });
    });
    const status = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { ms, rssMb: rssKb / 1024 };
  } finally {
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

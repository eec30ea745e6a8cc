import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BinaryMissingError, ProcessError, lastLines, runProcess } from '../../src/pipeline/process-runner.js';

const node = process.execPath;

describe('runProcess', () => {
  it('returns stdout as bytes, the stderr tail and code 0', async () => {
    const r = await runProcess(node, ['-e', 'process.stdout.write(Buffer.from([0,1,2,255])); process.stderr.write("note\\n")']);
    expect([...r.stdout]).toEqual([0, 1, 2, 255]);
    expect(r.stderr).toBe('note\n');
    expect(r.code).toBe(0);
  });

  it('passes arguments verbatim, without a shell', async () => {
    const tricky = ['$(touch /tmp/x)', '; rm -rf /', '"quoted"', '*', '--', ''];
    const r = await runProcess(node, ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...tricky]);
    expect(JSON.parse(r.stdout.toString())).toEqual(tricky);
  });

  it('writes input to stdin', async () => {
    const r = await runProcess(node, ['-e', 'process.stdin.pipe(process.stdout)'], { input: 'hello stdin' });
    expect(r.stdout.toString()).toBe('hello stdin');
  });

  it('turns a non-zero exit into a ProcessError carrying the code and the stderr tail', async () => {
    const err = await runProcess(node, ['-e', 'console.error("x".repeat(50000)); console.error("ERROR: the real reason"); process.exit(3)'], {
      stderrTailBytes: 1000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessError);
    const pe = err as ProcessError;
    expect(pe.kind).toBe('exit');
    expect(pe.code).toBe(3);
    expect(pe.stderr.length).toBeLessThanOrEqual(1000);
    expect(pe.stderr).toContain('ERROR: the real reason');
    expect(pe.message).toContain('exited with code 3');
  });

  it('names the Debian package and the setting when a binary is missing', async () => {
    const err = await runProcess('/nonexistent/dir/ffprobe', ['-version']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryMissingError);
    const be = err as BinaryMissingError;
    expect(be.binary).toBe('ffprobe');
    expect(be.debianPackage).toBe('ffmpeg');
    expect(be.setting).toBe('FFPROBE_PATH');
    expect(be.message).toContain('apt-get install ffmpeg');
  });

  it('kills the process (and its children) on time-out', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(c.pid);
      setInterval(() => {}, 1000);`;
    // generous: on a loaded machine Node may need more than a second to start and print the pid
    const err = await runProcess(node, ['-e', script], { timeoutMs: 4000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessError);
    expect((err as ProcessError).kind).toBe('timeout');
    const grandchild = Number((err as ProcessError).stdout.toString().trim());
    expect(grandchild).toBeGreaterThan(0);
    // the grandchild was in the same process group and got the same signal; the error comes
    // only once the whole group is gone
    expect(isAlive(grandchild)).toBe(false);
  });

  it('stops on abort, and refuses to start when already aborted', async () => {
    const ac = new AbortController();
    const p = runProcess(node, ['-e', 'setInterval(() => {}, 1000)'], { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const err = await p.catch((e: unknown) => e);
    expect((err as ProcessError).kind).toBe('aborted');
    const again = await runProcess(node, ['-e', '1'], { signal: ac.signal }).catch((e: unknown) => e);
    expect((again as ProcessError).kind).toBe('aborted');
  });

  it('escalates to SIGKILL for a group that ignores SIGTERM, and settles only when the group is gone', async () => {
    // the leader exits on SIGTERM; its child ignores SIGTERM and holds none of our pipes, so the
    // leader's exit alone would let it live on (what happened to a detached yt-dlp before)
    const ac = new AbortController();
    // the inner shell prints its pid once SIGTERM is ignored, then becomes `sleep` (same pid)
    const script = `sh -c 'trap "" TERM; echo $$; exec sleep 60 </dev/null >/dev/null 2>&1' & wait`;
    let pid = 0;
    const p = runProcess('/bin/sh', ['-c', script], {
      signal: ac.signal,
      onStdoutLine: (line) => {
        pid = Number(line);
        ac.abort();
      },
    });
    const err = await p.catch((e: unknown) => e);
    expect((err as ProcessError).kind).toBe('aborted');
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('kills a leader that ignores SIGTERM too', async () => {
    const ac = new AbortController();
    const p = runProcess('/bin/sh', ['-c', 'trap "" TERM; echo ready; while :; do sleep 1; done'], { signal: ac.signal, onStdoutLine: () => ac.abort() });
    const err = await p.catch((e: unknown) => e);
    expect((err as ProcessError).kind).toBe('aborted');
    expect((err as ProcessError).stdout.toString()).toBe('ready\n');
  });

  it('reports stdout lines as they come', async () => {
    const lines: string[] = [];
    await runProcess(node, ['-e', 'process.stdout.write("a=1\\nb=2\\r\\nc=3")'], { onStdoutLine: (l) => lines.push(l) });
    // the last line has no newline: it is not complete, so it is not reported
    expect(lines).toEqual(['a=1', 'b=2']);
  });

  it('refuses output beyond maxStdoutBytes', async () => {
    const err = await runProcess(node, ['-e', 'process.stdout.write("y".repeat(100000))'], { maxStdoutBytes: 1000 }).catch((e: unknown) => e);
    expect((err as ProcessError).kind).toBe('output_too_large');
  });

  it('reports stderr lines as they come and redacts secret arguments in the error', async () => {
    const lines: string[] = [];
    const err = await runProcess(node, ['-e', 'console.error("a"); console.error("b"); process.exit(1)', 'secret-value'], {
      onStderrLine: (l) => lines.push(l),
      secretArgs: ['secret-value'],
    }).catch((e: unknown) => e);
    expect(lines).toEqual(['a', 'b']);
    expect((err as ProcessError).args).toContain('[redacted]');
    expect((err as ProcessError).args).not.toContain('secret-value');
  });

  it('lastLines keeps the last non-empty lines', () => {
    expect(lastLines('a\n\nb\r\nc\n', 2)).toBe('b | c');
  });
});

/** Running, not merely a zombie waiting for a parent to reap it (containers often lack an init that reaps). */
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

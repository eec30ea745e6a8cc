import { describe, expect, it } from 'vitest';
import { Limiter, LimiterFullError } from '../../src/pipeline/limiter.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Limiter', () => {
  it('runs at most `max` jobs at once and starts queued ones in order', async () => {
    const limiter = new Limiter(2, 10);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        peak = Math.max(peak, limiter.active);
        await g.promise;
        return i;
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it('refuses at once when the queue is full', async () => {
    const limiter = new Limiter(1, 1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const second = limiter.run(async () => 'queued');
    await expect(limiter.run(async () => 'third')).rejects.toBeInstanceOf(LimiterFullError);
    gate.resolve();
    await first;
    expect(await second).toBe('queued');
  });

  it('drops a queued job whose request was aborted and frees its place', async () => {
    const limiter = new Limiter(1, 1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const ac = new AbortController();
    let ran = false;
    const queued = limiter.run(async () => {
      ran = true;
    }, ac.signal);
    ac.abort(new Error('client went away'));
    await expect(queued).rejects.toThrow('client went away');
    const next = limiter.run(async () => 'next');
    gate.resolve();
    await first;
    expect(await next).toBe('next');
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it('a failing job frees its place', async () => {
    const limiter = new Limiter(1, 0);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'ok')).toBe('ok');
  });
});

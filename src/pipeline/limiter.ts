/**
 * Bounds how many heavy jobs (child processes) run at once across all requests: at most `max`
 * run, up to `maxQueued` wait in order, and any more are refused at once (the caller answers
 * "busy, try again") rather than piling up processes on a small machine.
 */
export class Limiter {
  private running = 0;
  private readonly queue: { start: () => void; cancel: (err: Error) => void }[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueued: number,
  ) {}

  get active(): number {
    return this.running;
  }

  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.max) await this.wait(signal);
    else this.running++;
    try {
      return await job();
    } finally {
      const next = this.queue.shift();
      if (next) next.start();
      else this.running--;
    }
  }

  private wait(signal?: AbortSignal): Promise<void> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new LimiterFullError());
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        cancel: reject,
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
  }
}

export class LimiterFullError extends Error {
  constructor() {
    super('too many jobs waiting');
  }
}

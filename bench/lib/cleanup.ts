/**
 * What a bench must undo (processes, clusters, temp folders), run once, newest first, at the
 * end, on an error, and on Ctrl-C or SIGTERM: a bench that is interrupted leaves nothing running
 * and nothing in /tmp. A step that fails does not stop the others; its error is reported.
 */
export class Cleanup {
  private steps: { name: string; fn: () => unknown }[] = [];
  private running: Promise<string[]> | undefined;
  private handlers: [NodeJS.Signals, () => void][] = [];

  /** true once cleaning up began: work still under way is being torn down, its errors are expected */
  get started(): boolean {
    return this.running !== undefined;
  }

  add(name: string, fn: () => unknown): void {
    this.steps.push({ name, fn });
  }

  /** Runs every step (newest first) once; later calls wait for the same run. Returns the failures. */
  run(): Promise<string[]> {
    this.running ??= (async () => {
      const failures: string[] = [];
      for (const step of this.steps.reverse()) {
        try {
          await step.fn();
        } catch (err) {
          failures.push(`${step.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      this.steps = [];
      for (const [signal, handler] of this.handlers) process.off(signal, handler);
      return failures;
    })();
    return this.running;
  }

  /** On SIGINT/SIGTERM: clean up, then exit with 128 + the signal's number (130, 143). */
  onSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const handler = () => {
        process.stderr.write(`\n${signal}: stopping and cleaning up...\n`);
        void this.run().then((failures) => {
          for (const f of failures) process.stderr.write(`cleanup: ${f}\n`);
          exit(code);
        });
      };
      process.on(signal, handler);
      this.handlers.push([signal, handler]);
    }
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENTRY_FILE } from './sandbox-args.js';
import type { Language } from './types.js';

/**
 * Where programs wait for their run: one private parent directory per runner (mode 0711: the
 * sandbox user may pass through it but not list it, so it cannot find other runs' code), and
 * inside it a fresh random directory per run, readable by the sandbox user and bound read-only.
 * The harness only ever writes here and removes whole directories; it never reads or follows
 * anything a program produced.
 */
export class CodeDirs {
  private root: string | undefined;

  constructor(private readonly sandboxUid: number | null) {}

  async create(language: Language, code: string): Promise<string> {
    let dir: string;
    try {
      dir = await fs.promises.mkdtemp(path.join(this.ensureRoot(), 'run-'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // a tmp cleaner removed the parent while the service ran: make a new one
      this.root = undefined;
      dir = await fs.promises.mkdtemp(path.join(this.ensureRoot(), 'run-'));
    }
    await fs.promises.chmod(dir, 0o755);
    // 'wx': never write through something that already exists at that name
    await fs.promises.writeFile(path.join(dir, ENTRY_FILE[language]), code, { mode: 0o644, flag: 'wx' });
    return dir;
  }

  async remove(dir: string): Promise<void> {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }

  close(): void {
    if (this.root) fs.rmSync(this.root, { recursive: true, force: true });
    this.root = undefined;
  }

  private ensureRoot(): string {
    if (!this.root) {
      this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-code-'));
      // 0711 when a separate sandbox user must traverse it; 0700 when the code runs as us
      fs.chmodSync(this.root, this.sandboxUid === null ? 0o700 : 0o711);
    }
    return this.root;
  }
}

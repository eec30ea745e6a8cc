import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeDirs } from '../../src/code-runner/code-dir.js';

describe('CodeDirs', () => {
  it('writes each program into a fresh directory inside a private, unlistable parent, and removes it', async () => {
    const dirs = new CodeDirs(65534);
    const a = await dirs.create('python', 'print(1)');
    const b = await dirs.create('javascript', 'console.log(1)');
    expect(a).not.toBe(b);
    expect(path.dirname(a)).toBe(path.dirname(b));
    expect(fs.statSync(path.dirname(a)).mode & 0o777).toBe(0o711);
    expect(fs.statSync(a).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(a)).toEqual(['main.py']);
    expect(fs.readFileSync(path.join(b, 'main.js'), 'utf8')).toBe('console.log(1)');
    expect(fs.statSync(path.join(b, 'main.js')).mode & 0o777).toBe(0o644);
    await dirs.remove(a);
    expect(fs.existsSync(a)).toBe(false);
    dirs.close();
    expect(fs.existsSync(path.dirname(b))).toBe(false);
  });

  it('keeps the parent private (0700) when code runs as the service user, and survives a tmp cleaner removing it', async () => {
    const dirs = new CodeDirs(null);
    const a = await dirs.create('python', 'x');
    expect(fs.statSync(path.dirname(a)).mode & 0o777).toBe(0o700);
    fs.rmSync(path.dirname(a), { recursive: true });
    const b = await dirs.create('python', 'y');
    expect(fs.readFileSync(path.join(b, 'main.py'), 'utf8')).toBe('y');
    dirs.close();
  });
});

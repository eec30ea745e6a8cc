import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU time of other processes, read from Linux's /proc/<pid>/stat, for benches whose server
 * runs apart from the load generator: a server's CPU per request holds up on a shared machine
 * better than req/s (time spent waiting for a core is not counted).
 */

export interface ProcStat {
  pid: number;
  ppid: number;
  /** user + system time of the process itself, in clock ticks */
  ticks: number;
  /** user + system time of its children that have exited and were waited for, in clock ticks */
  childTicks: number;
}

/**
 * One /proc/<pid>/stat line. The command name (field 2) is in parentheses and may itself hold
 * spaces and parentheses, so the fields are counted from the last ')'.
 */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  // rest[0] is field 3 (state): field n is rest[n - 3]
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const field = (n: number) => {
    const v = Number(rest[n - 3]);
    if (!Number.isFinite(v)) throw new Error(`/proc/<pid>/stat field ${n} is not a number: ${text.slice(0, 80)}`);
    return v;
  };
  return { pid: Number(text.slice(0, open).trim()), ppid: field(4), ticks: field(14) + field(15), childTicks: field(16) + field(17) };
}

let clockTicks: number | undefined;
/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux nearly everywhere). */
export function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    clockTicks = Number(out.stdout?.trim()) || 100;
  }
  return clockTicks;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone (or not Linux)
  }
}

/** A process's own CPU time (all its threads), microseconds; undefined when it is gone. */
export function processCpuUs(pid: number): number | undefined {
  const s = readStat(pid);
  return s && (s.ticks * 1e6) / ticksPerSecond();
}

/**
 * CPU time of a process and its direct children, microseconds: for PostgreSQL, the postmaster and
 * every backend and background process. Children that exited since are in the root's child
 * time, so a backend that closes between two readings is not lost from their difference.
 */
export function processTreeCpuUs(rootPid: number, stats: ProcStat[] = allStats()): number | undefined {
  const root = stats.find((s) => s.pid === rootPid);
  if (!root) return undefined;
  const children = stats.filter((s) => s.ppid === rootPid);
  const ticks = root.ticks + root.childTicks + children.reduce((n, c) => n + c.ticks + c.childTicks, 0);
  return (ticks * 1e6) / ticksPerSecond();
}

function allStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) out.push(s);
  }
  return out;
}

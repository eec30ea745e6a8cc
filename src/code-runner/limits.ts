import type { Config } from '../config.js';
import type { RunLimits } from './types.js';

/** The limits of one run from the settings: the ceiling no caller can raise. */
export function configuredLimits(config: Config): RunLimits {
  return {
    wallMs: config.CODE_WALL_MS,
    cpuSeconds: config.CODE_CPU_SECONDS,
    dataBytes: config.CODE_DATA_MB * 1024 * 1024,
    processes: config.CODE_PROCESSES,
    fileBytes: config.CODE_FILE_BYTES,
    outputBytes: config.CODE_OUTPUT_BYTES,
  };
}

/**
 * A caller may tighten a limit (e.g. a quick check of a distractor), never loosen one; a value
 * that is not a positive whole number is ignored rather than trusted.
 */
export function resolveLimits(ceiling: RunLimits, requested: Partial<RunLimits> | undefined): RunLimits {
  const out = { ...ceiling };
  if (!requested) return out;
  for (const key of Object.keys(ceiling) as (keyof RunLimits)[]) {
    const v = requested[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) out[key] = Math.min(v, ceiling[key]);
  }
  return out;
}

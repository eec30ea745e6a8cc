import { ConfigError, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { PistonRunner } from './piston.runner.js';
import { SandboxRunner } from './sandbox.runner.js';
import type { CodeRunner } from './types.js';

export * from './types.js';
export { configuredLimits } from './limits.js';

/**
 * The runner the settings ask for. CODE_RUNNER=piston without PISTON_URL is refused at start
 * rather than silently running code locally.
 */
export function createCodeRunner(config: Config, logger: Logger): CodeRunner {
  const log = logger.child({ module: 'code-runner' });
  if (config.CODE_RUNNER === 'piston') {
    if (!config.PISTON_URL) throw new ConfigError(['PISTON_URL: CODE_RUNNER=piston needs the base URL of the Piston pool, e.g. http://10.0.0.5:2000']);
    return new PistonRunner(config, log);
  }
  return new SandboxRunner(config, log);
}

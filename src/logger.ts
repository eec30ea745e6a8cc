import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * One pino logger for the process; modules take `logger.child({ module })`.
 * Access codes, passwords, cookies and API keys are redacted wherever they appear in a log object.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'password',
        'access_code',
        'login_code',
        'code',
        '*.password',
        '*.access_code',
        '*.login_code',
        'req.headers.cookie',
        'req.headers.authorization',
        'apiKey',
        '*.apiKey',
      ],
      censor: '[redacted]',
    },
  });
}

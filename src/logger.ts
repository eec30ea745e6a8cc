import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * One pino logger for the process; modules take `logger.child({ module })`.
 * Access codes, passwords, cookies and API keys are redacted wherever they appear in a log object.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  // JSON lines on stdout (or the given stream, for tests); human banners go to stderr
  return destination ? pino(options, destination) : pino(options);
}

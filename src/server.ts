import { ConfigError, loadConfig, readEnv, type Config } from './config.js';
import { openAppDatabase } from './db/open.js';
import { createLogger } from './logger.js';
import { createApp } from './app.js';
import { installShutdown, trackRequests } from './http/graceful-shutdown.js';
import { createHttpServer } from './http/http-server.js';

/** Start-up: config -> database (migrate) -> app -> HTTP server + WebSocket upgrades -> listen. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(readEnv(process.env));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nFix these settings (environment or .env; see .env.example) and start again.\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  if (config.adminPasswordIsDefault) {
    const line = '!'.repeat(78);
    process.stderr.write(
      `\n${line}\n  WARNING: ADMIN_PASSWORD is not set. The built-in default admin password is in use:\n` +
        `  "${config.ADMIN_PASSWORD}". Anyone who knows it can manage this service.\n` +
        `  Set ADMIN_PASSWORD in the environment or in .env before real use.\n${line}\n\n`,
    );
  }
  // SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL (which may also hold the shared secret)
  const opened = await openAppDatabase(config);
  config = opened.config;
  const db = opened.db;
  const built = await createApp({ config, db, logger });
  const server = createHttpServer(built.app);
  const requests = trackRequests(server);
  server.on('upgrade', (req, socket, head) => built.upgrades.handle(req, socket, head));
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info({ port, dataDir: config.dataDir, database: db.engine, env: built.app.get('env') }, 'listening');
    // Human banner on stderr: stdout carries only JSON log lines, for log collectors.
    process.stderr.write(
      `\n  Kids video quiz is running:\n    kids (tablet):      http://localhost:${port}/kids\n` +
        `    parents & experts:  http://localhost:${port}/expert\n    admin:              http://localhost:${port}/admin\n\n`,
    );
  });

  const stop = installShutdown(
    {
      server,
      drainMs: config.SHUTDOWN_DRAIN_MS,
      closeApp: () => built.close(),
      closeDb: () => db.close(),
      logger,
      exit: (code) => process.exit(code),
    },
    requests,
  );
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

#!/usr/bin/env node
import { loadDotEnv, readConfig } from "./platform/config.js";
import { createLogger } from "./platform/logger.js";
import { startServer } from "./server.js";

/**
 * `npm start`: settings from the environment (and .env), the fixtures loaded, the server listening; SIGINT and
 * SIGTERM stop it cleanly. A bad setting or a broken fixture stops the start with a message saying where.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = readConfig(process.env);
  const logger = createLogger({ level: config.LOG_LEVEL });
  const running = await startServer({
    host: config.HOST,
    port: config.PORT,
    logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    tokenGraceSeconds: config.TOKEN_GRACE_SECONDS,
    tokenLimit: config.TOKEN_LIMIT,
    v2AuthMode: config.V2_AUTH_MODE,
    trustProxy: config.TRUST_PROXY,
    journalSize: config.JOURNAL_SIZE,
    ...(config.MOCK_ADMIN_TOKEN !== undefined && { adminToken: config.MOCK_ADMIN_TOKEN }),
    ...(config.FIXTURES_DIR !== undefined && { fixturesDir: config.FIXTURES_DIR }),
  });
  const projects = running.registry.list().map((project) => project.id);
  logger.info({ url: running.url, projects }, `loyalty-mock listening on ${running.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Exit only once the asynchronous log destination has written everything.
    running.close().then(
      () => logger.flush(() => process.exit(0)),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`loyalty-mock could not start. ${message}\n`);
  process.exit(1);
});

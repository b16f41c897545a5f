#!/usr/bin/env node
import { type CommandLine, parseCommandLine, UsageError, usage, version } from "./cli.js";
import { createLogger } from "./platform/logger.js";
import { startServer } from "./server.js";
import { loadDotEnv, readConfig, settingsOf } from "./settings.js";

/**
 * The `loyalty-mock` bin and `npm start`: settings from the flags, the environment and .env (in that order of
 * precedence), the projects loaded (from the state file when there is one), the server listening; SIGINT and
 * SIGTERM stop it cleanly: no new connections, in-flight requests finished, state saved, exit 0. A bad setting, a
 * broken fixture or an unusable state file stops the start with a message saying where.
 */
async function serve(flags: Record<string, string>): Promise<void> {
  loadDotEnv();
  const { logLevel, ...options } = settingsOf(readConfig({ ...process.env, ...flags }));
  const logger = createLogger({ level: logLevel });
  const running = await startServer({ ...options, logger });
  const projects = running.registry.list().map((project) => project.id);
  logger.info(
    { url: running.url, projects, stateFile: options.stateFile },
    `loyalty-mock listening on ${running.url}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Exit only once the asynchronous log destination has written everything.
    running.close().then(
      () => {
        if (running.stateWriter) logger.info({ file: running.stateWriter.file }, "state saved");
        logger.flush(() => process.exit(0));
      },
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

function commandLine(): CommandLine {
  try {
    return parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`loyalty-mock: ${error.message}\nRun loyalty-mock --help to see the options.\n`);
    process.exit(2);
  }
}

const line = commandLine();
if (line.command === "help") process.stdout.write(usage());
else if (line.command === "version") process.stdout.write(`${version()}\n`);
else
  serve(line.env).catch((error: unknown) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`loyalty-mock could not start. ${message}\n`);
    process.exit(1);
  });

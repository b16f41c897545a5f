#!/usr/bin/env node
import { openControlWarning } from "./cli/exposure.js";
import { launcherOf, watchLauncher } from "./cli/launcher.js";
import { runVerify } from "./cli/verify/run.js";
import { type CommandLine, parseCommandLine, UsageError, usage, version } from "./cli.js";
import { readEnvFile } from "./env-file.js";
import { createLogger } from "./platform/logger.js";
import { type StartOptions, startServer } from "./server.js";
import { readConfig, settingsOf } from "./settings.js";
import { startFailure } from "./start-errors.js";
import { runWait } from "./wait.js";
import { runListen } from "./webhooks-listen.js";

type Serve = Extract<CommandLine, { command: "serve" }>;

const say = (line: string) => process.stderr.write(`loyalty-mock: ${line}\n`);

/**
 * The `loyalty-mock` bin and `npm start`: settings from the flags, the environment and the --env-file (in that
 * order of precedence), the projects loaded (from the state file when there is one), the server listening, and
 * its address on stderr; SIGINT and SIGTERM stop it cleanly: no new connections, in-flight requests finished,
 * state saved, exit 0. What stops the start is said in one line per problem (start-errors.ts).
 */
async function serve(line: Serve): Promise<void> {
  const launcher = launcherOf();
  let options: StartOptions = {};
  try {
    // Variables already set win over the file, as with Node's own --env-file.
    const env = line.envFile === undefined ? process.env : { ...readEnvFile(line.envFile), ...process.env };
    const { logLevel, exitWithParent, ...settings } = settingsOf(
      readConfig(env, line.env, (warning) => say(`warning: ${warning}`)),
    );
    options = settings;
    const logger = createLogger({ level: logLevel });
    const running = await startServer({ ...settings, logger });
    // Always, whatever the log level: a script starting the bin with --port 0 reads its address here.
    process.stderr.write(`loyalty-mock listening on ${running.url}\n`);
    const warning = openControlWarning(settings.host, settings.adminToken);
    if (warning !== undefined) say(warning);
    const projects = running.registry.list().map((project) => project.id);
    logger.info(
      { url: running.url, projects, stateFile: settings.stateFile },
      `loyalty-mock listening on ${running.url}`,
    );
    const stop = stopOnSignals(running, logger);
    if (exitWithParent) watchLauncher((what) => stop(`launcher gone: ${what}`), { launcher });
  } catch (error) {
    const failure = startFailure(error, options);
    for (const text of failure.lines) say(text);
    process.exit(failure.status);
  }
}

function stopOnSignals(
  running: Awaited<ReturnType<typeof startServer>>,
  logger: ReturnType<typeof createLogger>,
): (reason: string) => void {
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
  return stop;
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
else if (line.command === "wait") runWait(line, process.env).then((status) => process.exit(status));
else if (line.command === "webhooks-listen")
  runListen(line).catch((error: unknown) => {
    process.stderr.write(`loyalty-mock: webhooks listen: ${(error as Error).message}\n`);
    process.exit(1);
  });
else if (line.command === "verify")
  runVerify(line, {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    version: version(),
  })
    .then((status) => process.exit(status))
    .catch((error: unknown) => {
      say(`verify: ${(error as Error).message}`);
      process.exit(2);
    });
else void serve(line);

import { readConfig, settingsOf } from "../config/settings.js";
import { readSettingsFile } from "../config/settings-file.js";
import { variableOf } from "../config/settings-table.js";
import type { StartOptions } from "../config/start-options.js";
import { releaseFreeMemory } from "../platform/collect-garbage.js";
import { createLogger } from "../platform/logger.js";
import { startServer } from "../server.js";
import type { CommandLine } from "./command-line.js";
import { everyAddressLine, openControlWarning } from "./exposure.js";
import { claimHealthFile, releaseHealthFile } from "./health-file.js";
import { launcherOf, watchLauncher } from "./launcher.js";
import { launcherGoneAtStart } from "./launcher-gone.js";
import { type NameOf, startFailure } from "./start-errors.js";
import { clockNote, seedNote } from "./start-notes.js";

type Serve = Extract<CommandLine, { command: "serve" }>;

const say = (line: string) => process.stderr.write(`loyalty-mock: ${line}\n`);

/**
 * The `loyalty-mock` bin and `npm start`: settings from the flags, the environment and the --settings-file (in that
 * order of precedence), the projects loaded (from the state file when there is one), the server listening, and
 * its address on stderr; SIGINT and SIGTERM stop it cleanly: no new connections, in-flight requests finished,
 * state saved, exit 0. What stops the start is said in one line per problem (start-errors.ts).
 */
export async function serve(line: Serve): Promise<void> {
  // Taken as the bin starts: a launcher that is gone before the server listens is still noticed.
  const launcher = launcherOf();
  let options: StartOptions = {};
  let labels: Record<string, string> = {};
  try {
    // Variables already set win over the file, as with Node's own --env-file.
    const fromFile = line.settingsFile === undefined ? {} : readSettingsFile(line.settingsFile);
    labels = labelsOf(fromFile, line.settingsFile);
    const env = { ...fromFile, ...process.env };
    const { logLevel, exitWithParent, healthFile, ...settings } = settingsOf(
      readConfig(env, line.env, (warning) => say(`warning: ${warning}`), labels),
    );
    options = settings;
    const gone = exitWithParent ? launcherGoneAtStart() : undefined;
    if (gone !== undefined) {
      // As the watch below stops it once its launcher exits; here the launcher exited before the watch could begin.
      say(`not starting: ${gone}. --exit-with-parent false keeps a server whose launcher has exited`);
      process.exit(0);
    }
    const logger = createLogger({ level: logLevel });
    const running = await startServer({ ...settings, logger });
    // The load's garbage given back before the first answer is served: hundreds of MiB at a million cards, a few
    // milliseconds of collection at the default fixtures (docs/performance.md, "A million cards in memory").
    await releaseFreeMemory();
    // Before the address is said: a script that reads it and at once sends SIGTERM must find the handler there,
    // not the default action (an exit by the signal, with unsaved state lost), as a loaded machine showed.
    const stop = stopOnSignals(running, logger, () => {
      if (healthFile !== undefined) releaseHealthFile(healthFile);
    });
    // Before the address is said: a script (or test) that reads the address and at once runs the health check
    // must find the file written, as a loaded machine showed it did not when this came after.
    if (healthFile !== undefined) tellHealthFile(healthFile, running.url, settings.adminToken);
    // Always, whatever the log level: a script starting the bin with --port 0 reads its address here.
    process.stderr.write(`loyalty-mock listening on ${running.url}\n`);
    const everywhere = everyAddressLine(settings.host, running.port);
    if (everywhere !== undefined) say(everywhere);
    const warning = openControlWarning(settings.host, settings.adminToken);
    if (warning !== undefined) say(warning);
    // Their own lines: scripts read the URL from the line above, to its end.
    for (const note of [
      seedNote(settings.seed, settings.host),
      clockNote(running.registry.list(), settings.freezeClock, running.restored),
    ])
      if (note !== undefined) say(note);
    const projects = running.registry.list().map((project) => project.id);
    logger.info(
      { url: running.url, projects, stateFile: settings.stateFile, seeded: settings.seed !== undefined },
      `loyalty-mock listening on ${running.url}`,
    );
    if (exitWithParent) watchLauncher((what) => stop(`launcher gone: ${what}`), { launcher });
  } catch (error) {
    const failure = startFailure(error, options, nameOf(line, labels));
    for (const text of failure.lines) say(text);
    process.exit(failure.status);
  }
}

/** The variables the settings file gave (those the environment did not set), named with the file. */
function labelsOf(fromFile: Record<string, string>, file: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const name of Object.keys(fromFile)) if (!process.env[name]) labels[name] = `${name} (in ${file})`;
  return labels;
}

/** What the user set a setting with, for the line that refuses it: the flag typed, else the variable. */
function nameOf(line: Serve, labels: Record<string, string>): NameOf {
  return (row) => {
    if (row.flag && line.env[row.env] !== undefined) return `--${row.flag.name}`;
    const name = variableOf(row);
    return labels[name] ?? name;
  };
}

/**
 * The health file (LOYALTY_MOCK_HEALTH_FILE): this server's address and admin token, for the image's health check.
 * A server that cannot write it still serves, and says why its container will not turn healthy.
 */
function tellHealthFile(file: string, url: string, adminToken: string | undefined): void {
  const claim = claimHealthFile(file, {
    pid: process.pid,
    url,
    ...(adminToken !== undefined && { admin_token: adminToken }),
  });
  if ("ownerPid" in claim)
    say(
      `warning: ${file} belongs to another running server (pid ${claim.ownerPid}): the health check follows that one`,
    );
  else if ("error" in claim)
    say(
      `warning: could not write the health file ${file} (${claim.error.message}): the health check cannot find this server`,
    );
}

function stopOnSignals(
  running: Awaited<ReturnType<typeof startServer>>,
  logger: ReturnType<typeof createLogger>,
  onStop: () => void,
): (reason: string) => void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // First: a server that no longer takes connections is no longer the health check's to find.
    onStop();
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

import { runCheck } from "./check/command.js";
import { type CommandLine, parseCommandLine, UsageError, version } from "./command-line.js";
import { runMcp } from "./mcp/run.js";
import { runPlay } from "./play.js";
import { serve } from "./serve.js";
import { runTrigger } from "./trigger/run.js";
import { runVerify } from "./verify/run.js";
import { runWait } from "./wait.js";
import { runListen } from "./webhooks-listen.js";

function commandLine(args: readonly string[]): CommandLine {
  try {
    return parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const name = error.command?.name ? ` ${error.command.name}` : "";
    process.stderr.write(
      `loyalty-mock: ${error.message}\nRun loyalty-mock${name} --help to see the options.\n`,
    );
    process.exit(2);
  }
}

const toStdout = (text: string) => process.stdout.write(text);
const toStderr = (text: string) => process.stderr.write(text);

/** The `loyalty-mock` command: the server (the default), or one of its subcommands, or its help or version. */
export function runCommand(args: readonly string[]): void {
  const line = commandLine(args);
  if (line.command === "help") process.stdout.write(line.text);
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
        process.stderr.write(`loyalty-mock: verify: ${(error as Error).message}\n`);
        process.exit(2);
      });
  else if (line.command === "play")
    runPlay(line, {
      env: process.env,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    }).then((status) => process.exit(status));
  else if (line.command === "trigger")
    runTrigger(line, { env: process.env, stdout: toStdout, stderr: toStderr }).then((status) =>
      process.exit(status),
    );
  else if (line.command === "check") process.exit(runCheck(line, { stdout: toStdout, stderr: toStderr }));
  else if (line.command === "mcp")
    runMcp(line, { env: process.env, stderr: toStderr, version: version() }).catch((error: unknown) => {
      process.stderr.write(`loyalty-mock: mcp: ${(error as Error).message}\n`);
      process.exit(1);
    });
  else void serve(line);
}

// @ts-check
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Starting and stopping the server for the action, in either mode. `node`: the action's own checkout, installed
 * and built there (`npm ci`, whose `prepare` builds dist/), run with the runner's Node. `docker`: the image built
 * from the same checkout's Dockerfile, run as the runner's user with its port published on loopback. Either way the
 * server outlives the step that starts it, and its stdout and stderr go to server.log and server.err.
 */

/** The action's checkout: the folder above this file's. */
const ACTION_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MAIN = join(ACTION_PATH, "dist", "main.js");
/** Where the image listens, and where the container finds what the action mounts. */
const IMAGE_PORT = 3000;
/** The settings the container sets itself (docker mode passes the job's other LOYALTY_MOCK_ variables on). */
const CONTAINER_OWN = ["LOYALTY_MOCK_HOST", "LOYALTY_MOCK_PORT", "LOYALTY_MOCK_HEALTH_FILE"];

/**
 * @typedef {object} Options
 * @property {string} id this run's own word, for the container's name
 * @property {string} port "0" for a free one
 * @property {string} [fixtures] absolute
 * @property {string} [seed]
 * @property {string} [freezeClock]
 * @property {string} [stateFile] absolute
 * @property {string} adminToken
 * @property {string} [settingsFile] absolute: the `settings` input's lines
 * @property {string} logDir
 * @property {string} [nodeImage]
 * @property {number} timeout seconds to wait for the server's answer
 * @property {string} workspace
 */

/** @typedef {{ mode: "node", pid: number } | { mode: "docker", container: string }} Launched */

/**
 * A command run to its end, its output in the step's log; throws with its status unless it succeeds.
 * @param {string} command @param {string[]} args @param {import("node:child_process").SpawnSyncOptions} [options]
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args[0]} failed (${result.error?.message ?? `exit status ${result.status}`})`,
    );
}

/** @param {string} command @param {string[]} args */
function output(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return {
    ok: result.status === 0,
    stdout: result.stdout?.trim() ?? "",
    stderr: result.stderr?.trim() ?? "",
  };
}

/** @param {string} logDir */
const logFiles = (logDir) => ({ out: join(logDir, "server.log"), err: join(logDir, "server.err") });

/**
 * Runs `command` detached, its stdout and stderr into the log files (truncated: `wait --log` must not read an
 * earlier server's address), never holding the step open.
 * @param {string} command @param {string[]} args @param {string} logDir @param {string} cwd
 */
function detached(command, args, logDir, cwd) {
  const { out, err } = logFiles(logDir);
  const fds = [openSync(out, "w"), openSync(err, "w")];
  try {
    const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", ...fds] });
    child.unref();
    return child;
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** Installs and builds the checkout unless a run on this runner already did. */
export function installNode() {
  if (existsSync(MAIN)) return;
  run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: ACTION_PATH });
}

/** @param {Options} options @returns {Launched} */
export function launchNode(options) {
  const flags = ["--port", options.port, "--admin-token", options.adminToken, "--exit-with-parent", "false"];
  if (options.fixtures) flags.push("--fixtures", options.fixtures);
  if (options.seed) flags.push("--seed", options.seed);
  if (options.freezeClock) flags.push("--freeze-clock", options.freezeClock);
  if (options.stateFile) flags.push("--state-file", options.stateFile);
  if (options.settingsFile) flags.push("--settings-file", options.settingsFile);
  const child = detached(process.execPath, [MAIN, ...flags], options.logDir, options.workspace);
  if (child.pid === undefined) throw new Error(`could not start ${process.execPath} ${MAIN}`);
  return { mode: "node", pid: child.pid };
}

/** @param {string} dir */
const version = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;

/**
 * Builds the image from the checkout. Behind a proxy that re-signs TLS, the runner's NODE_EXTRA_CA_CERTS goes to
 * the build as the npm_ca secret its Dockerfile reads (never stored in a layer).
 * @param {Options} options
 */
export function buildImage(options) {
  const tag = `loyalty-mock:action-${version(ACTION_PATH)}`;
  const args = ["build", "-t", tag];
  if (options.nodeImage) args.push("--build-arg", `NODE_IMAGE=${options.nodeImage}`);
  if (process.env.NODE_EXTRA_CA_CERTS)
    args.push("--secret", `id=npm_ca,src=${process.env.NODE_EXTRA_CA_CERTS}`);
  run("docker", [...args, ACTION_PATH], { env: { ...process.env, DOCKER_BUILDKIT: "1" } });
  return tag;
}

/** @param {Options} options @param {string} image @returns {Launched} */
export function launchDocker(options, image) {
  const container = `loyalty-mock-${options.id}`;
  const args = [
    "run",
    "-d",
    "--name",
    container,
    "-p",
    `127.0.0.1:${options.port === "0" ? "" : options.port}:${IMAGE_PORT}`,
  ];
  // As the runner's user: it owns the workspace, so the container reads the fixtures and writes the state file.
  if (process.getuid && process.getgid) args.push("--user", `${process.getuid()}:${process.getgid()}`);
  const env = { LOYALTY_MOCK_ADMIN_TOKEN: options.adminToken };
  for (const [name, value] of Object.entries(process.env))
    if (
      name.startsWith("LOYALTY_MOCK_") &&
      !CONTAINER_OWN.includes(name) &&
      value !== undefined &&
      !(name in env)
    )
      Object.assign(env, { [name]: value });
  if (options.seed) Object.assign(env, { LOYALTY_MOCK_SEED: options.seed });
  if (options.freezeClock) Object.assign(env, { LOYALTY_MOCK_FREEZE_CLOCK: options.freezeClock });
  if (options.fixtures) {
    args.push("-v", `${options.fixtures}:/fixtures:ro`);
    Object.assign(env, { LOYALTY_MOCK_FIXTURES_DIR: "/fixtures" });
  }
  if (options.stateFile) {
    args.push("-v", `${dirname(options.stateFile)}:/state`);
    Object.assign(env, { LOYALTY_MOCK_STATE_FILE: `/state/${basename(options.stateFile)}` });
  }
  if (options.settingsFile) args.push("-v", `${options.settingsFile}:/loyalty-mock/settings.env:ro`);
  // Each variable by name only: docker reads its value from its own environment, so no value is on a command line.
  for (const name of Object.keys(env)) args.push("-e", name);
  args.push(image);
  if (options.settingsFile) args.push("--settings-file", "/loyalty-mock/settings.env");
  const started = spawnSync("docker", args, { encoding: "utf8", env: { ...process.env, ...env } });
  if (started.status !== 0) throw new Error(`docker run failed: ${started.stderr.trim()}`);
  // Its output into the same two files as in node mode, for as long as the container runs.
  detached("docker", ["logs", "-f", container], options.logDir, options.workspace);
  return { mode: "docker", container };
}

/**
 * Waits for the server's health answer (`loyalty-mock wait`), at most `timeout` seconds; its URL on the host.
 * @param {Launched} launched @param {Options} options @returns {string}
 */
export function waitFor(launched, options) {
  const seconds = String(options.timeout);
  if (launched.mode === "node") {
    const { err } = logFiles(options.logDir);
    const waited = output(process.execPath, [
      MAIN,
      "wait",
      "--log",
      err,
      "--timeout",
      seconds,
      "--admin-token",
      options.adminToken,
    ]);
    if (waited.ok) return waited.stdout;
    throw new Error(`${waited.stderr}\n${readFileSync(err, "utf8")}`);
  }
  // The image's own `wait`, inside the container, where the server listens on its port.
  const inside = `http://127.0.0.1:${IMAGE_PORT}`;
  const waited = output("docker", [
    "exec",
    launched.container,
    "node",
    "/app/dist/main.js",
    "wait",
    "--url",
    inside,
    "--timeout",
    seconds,
  ]);
  if (!waited.ok)
    throw new Error(`${waited.stderr}\n${output("docker", ["logs", launched.container]).stderr}`);
  const published =
    output("docker", ["port", launched.container, `${IMAGE_PORT}/tcp`]).stdout.split("\n")[0] ?? "";
  return `http://127.0.0.1:${published.slice(published.lastIndexOf(":") + 1)}`;
}

/** Whether the process runs (a zombie nobody reaped yet has stopped). @param {number} pid */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Whether the pid is still the server the action started (pids are reused). @param {number} pid */
function ours(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(MAIN);
  } catch {
    return running(pid);
  }
}

const pause = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/**
 * SIGTERM, as Ctrl-C: the server finishes in-flight requests, saves its state and exits 0. Past `graceMs` it is
 * killed, and that is said.
 * @param {Launched} launched @param {number} [graceMs]
 * @returns {Promise<string>} how it went, in words
 */
export async function stop(launched, graceMs = 20_000) {
  if (launched.mode === "docker") {
    const stopped = output("docker", ["stop", "-t", String(Math.ceil(graceMs / 1000)), launched.container]);
    const code = output("docker", ["inspect", "-f", "{{.State.ExitCode}}", launched.container]).stdout;
    output("docker", ["rm", launched.container]);
    if (!stopped.ok) return `could not be stopped: ${stopped.stderr}`;
    return code === "0" ? "stopped cleanly (docker stop, exit status 0)" : `stopped with exit status ${code}`;
  }
  const { pid } = launched;
  if (!ours(pid) || !running(pid)) return "had already stopped";
  process.kill(pid, "SIGTERM");
  for (const deadline = Date.now() + graceMs; Date.now() < deadline; await pause(100))
    if (!running(pid)) return "stopped cleanly (SIGTERM)";
  process.kill(pid, "SIGKILL");
  return `did not stop within ${graceMs / 1000} s of SIGTERM, and was killed`;
}

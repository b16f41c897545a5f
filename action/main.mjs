// @ts-check
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { exportVariable, fail, group, info, input, mask, saveState, setOutput } from "./runner.mjs";
import { buildImage, installNode, launchDocker, launchNode, waitFor } from "./server.mjs";

/**
 * The action's main step: a loyalty-mock server for the rest of the job, started from the action's checkout
 * (node) or from the image built from it (docker), waited for, and its address, admin token and the default
 * project's key pair handed to the later steps (outputs and environment variables). The post step (post.mjs)
 * summarises its journal and stops it.
 */

/** The default project: the first one the server lists (`demo` with the embedded data), with an active key. */
async function defaultProject(/** @type {string} */ url, /** @type {string} */ token) {
  const get = async (/** @type {string} */ path) => {
    const res = await fetch(`${url}/__mock${path}`, { headers: { "X-Mock-Admin-Token": token } });
    if (!res.ok) throw new Error(`GET /__mock${path}: ${res.status}`);
    return /** @type {any} */ (await res.json());
  };
  for (const { id } of (await get("/projects")).projects) {
    const keys = (await get(`/projects/${encodeURIComponent(id)}/keys`)).api_keys;
    const key = keys.find((/** @type {{ status: string }} */ candidate) => candidate.status === "ACTIVE");
    if (key) return { id: String(id), appId: String(key.app_id), appToken: String(key.app_token) };
  }
  return undefined;
}

/** The inputs, checked, with paths made absolute against the workspace. */
function options() {
  const id = randomBytes(4).toString("hex");
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const mode = input("mode") || "node";
  if (mode !== "node" && mode !== "docker") throw new Error(`mode: "${mode}"; expected node or docker`);
  const port = input("port") || "0";
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535)
    throw new Error(`port: "${port}"; expected 0 to 65535`);
  const timeout = Number(input("timeout") || "60");
  if (!(timeout > 0 && timeout <= 3600))
    throw new Error(`timeout: "${input("timeout")}"; expected seconds, 1 to 3600`);
  const path = (/** @type {string} */ name) => (input(name) ? resolve(workspace, input(name)) : undefined);
  const logDir = path("log-dir") ?? join(process.env.RUNNER_TEMP || tmpdir(), `loyalty-mock-${id}`);
  const adminToken = input("admin-token") || randomBytes(24).toString("hex");
  let settingsFile;
  if (input("settings")) {
    settingsFile = join(process.env.RUNNER_TEMP || tmpdir(), `loyalty-mock-${id}.env`);
    writeFileSync(settingsFile, `${input("settings")}\n`, { mode: 0o600 });
  }
  const stateFile = path("state-file");
  mkdirSync(logDir, { recursive: true });
  if (stateFile) mkdirSync(dirname(stateFile), { recursive: true });
  return {
    mode,
    options: {
      id,
      port,
      fixtures: path("fixtures"),
      seed: input("seed") || undefined,
      freezeClock: input("freeze-clock") || undefined,
      stateFile,
      adminToken,
      settingsFile,
      logDir,
      nodeImage: input("node-image") || undefined,
      timeout,
      workspace,
    },
  };
}

async function main() {
  const { mode, options: given } = options();
  mask(given.adminToken);
  saveState("log-dir", given.logDir);
  let launched;
  if (mode === "node") {
    group("Install and build loyalty-mock", installNode);
    launched = launchNode(given);
  } else
    launched = launchDocker(
      given,
      group("Build the loyalty-mock image", () => buildImage(given)),
    );
  // Saved at once: the post step stops the server even when the wait below fails.
  saveState("launched", JSON.stringify(launched));
  const url = waitFor(launched, given);
  saveState("url", url);
  saveState("admin-token", given.adminToken);
  const project = await defaultProject(url, given.adminToken);
  const values = {
    url,
    "admin-token": given.adminToken,
    "project-id": project?.id ?? "",
    "app-id": project?.appId ?? "",
    "app-token": project?.appToken ?? "",
    "log-dir": given.logDir,
  };
  for (const [name, value] of Object.entries(values)) setOutput(name, value);
  exportVariable("LOYALTY_BASE_URL", url);
  exportVariable("LOYALTY_MOCK_ADMIN_TOKEN", given.adminToken);
  if (project) {
    exportVariable("LOYALTY_PROJECT_ID", project.id);
    exportVariable("LOYALTY_APP_ID", project.appId);
    exportVariable("LOYALTY_APP_TOKEN", project.appToken);
  }
  info(`loyalty-mock listening on ${url} (${mode} mode); logs in ${given.logDir}`);
  info(
    project
      ? `Default project: ${project.id}, key ${project.appId}`
      : "No project with an active key to hand out",
  );
}

main().catch((/** @type {Error} */ error) => fail(`loyalty-mock: ${error.message}`));

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VerifyCommand } from "../../src/cli/verify/command.js";
import { runVerify } from "../../src/cli/verify/run.js";
import { type RunningServer, startServer } from "../../src/index.js";

/**
 * The target of `loyalty-mock verify` in tests: a second stand-in on loopback, with a key of its own whose secrets
 * are easy to look for, and its objects chosen apart from the mock side's demo objects where the fixtures allow
 * (another tier structure, another incentive), so the mapping of objects is exercised too.
 */
export const SECRETS = { appId: "target-app-id-5ecret", appToken: "target-app-token-5ecret" };

export const TARGET_OBJECTS = {
  loyalty_campaign_id: "camp_demo_loyalty",
  location_id: "loc_demo_circle",
  tier_structure_id: "lts_d0000000000000003",
  // Each run with writes deletes two (the incentive step, the benefit step); several runs share a target here.
  incentive_ids: [
    "linc_d0000000000000105",
    "linc_d0000000000000106",
    "linc_d0000000000000107",
    "linc_d0000000000000108",
    "linc_d0000000000000103",
    "linc_d0000000000000104",
    "linc_d0000000000000109",
    "linc_d000000000000010a",
    "linc_d000000000000010b",
    "linc_d000000000000010c",
    "linc_d000000000000010d",
    "linc_d000000000000010e",
    "linc_d000000000000010f",
    "linc_d0000000000000110",
  ],
  custom_event: { name: "user_subscribed", metadata: { plan: "team", seats: 3 } },
};

export async function startTarget(): Promise<RunningServer> {
  const target = await startServer({ host: "127.0.0.1", port: 0 });
  const res = await fetch(`${target.url}/__mock/projects/demo/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: SECRETS.appId, app_token: SECRETS.appToken, name: "verify target" }),
  });
  if (res.status !== 201) throw new Error(`key not created: ${res.status} ${await res.text()}`);
  // Each run with writes adds two tiers to the structure (both Loyalty v2 forms): room for the runs of a file.
  const settings = await fetch(`${target.url}/__mock/projects/demo/settings`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tier_limit: 100 }),
  });
  if (settings.status !== 200)
    throw new Error(`tier_limit not set: ${settings.status} ${await settings.text()}`);
  return target;
}

export function tempDir(): { dir: string; remove(): void; files(): string[] } {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-verify-"));
  return {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
    files: () => readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8")),
  };
}

/** A config file for the target at `url`; the secrets in the file unless `secretsInFile` is false. */
export function writeConfig(
  dir: string,
  url: string,
  options: { secretsInFile?: boolean; allowWrites?: boolean; objects?: Partial<typeof TARGET_OBJECTS> } = {},
) {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  const secrets =
    options.secretsInFile === false ? {} : { app_id: SECRETS.appId, app_token: SECRETS.appToken };
  writeFileSync(
    file,
    JSON.stringify({
      target: { url, ...secrets },
      objects: { ...TARGET_OBJECTS, ...options.objects },
      allow_writes: options.allowWrites ?? true,
    }),
  );
  return file;
}

export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** Each run a second later than the last: runs sharing a target within a second would pick the same tier range. */
let runs = 0;

export async function verify(
  command: Omit<VerifyCommand, "command" | "allowWrites"> & { allowWrites?: boolean },
  env = {},
): Promise<Ran> {
  runs += 1;
  let stdout = "";
  let stderr = "";
  const status = await runVerify(
    { command: "verify", allowWrites: false, ...command },
    {
      env,
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      version: "0.0.0-test",
      now: () => Date.now() + 1000 * runs,
    },
  );
  return { status, stdout, stderr };
}

/**
 * A proxy in front of the target that changes answers the way a vendor release might: the card assignment's
 * success loses `loyalty_card`, and the unknown event's error key is renamed.
 */
export async function startReleaseProxy(targetUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(targetUrl);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => parts.push(chunk));
          answer.on("end", () => {
            let text = Buffer.concat(parts).toString("utf8");
            const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
            if (body && req.url?.endsWith("/members") && answer.statusCode === 200) delete body.loyalty_card;
            if (body && req.url === "/v1/events" && body.key === "event_not_defined")
              body.key = "custom_event_not_found";
            if (body) text = JSON.stringify(body);
            const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(text)) };
            res.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import {
  ADMIN,
  docker,
  dockerHealthy,
  healthy,
  hostPort,
  IMAGE,
  inspect,
  LABEL,
  logs,
  packageVersion,
  removeAll,
  runDetached,
  unique,
} from "./docker.js";

/** Issue 25 item 1, black-box: what `docker run` of the image gives, checked from outside the container. */
const PUBLISH = ["-p", "127.0.0.1::3000"];
const WARNING =
  /^loyalty-mock: warning: the control API \(\/__mock\) and the dashboard answer anyone who reaches 0\.0\.0\.0: .*LOYALTY_MOCK_ADMIN_TOKEN to require a token$/m;

afterAll(() => removeAll());

describe("the image", () => {
  it("carries the OCI labels, runs as a non-root user, declares /data and a health check", () => {
    const labels = JSON.parse(inspect(IMAGE, "{{json .Config.Labels}}")) as Record<string, string>;
    expect(labels).toMatchObject({
      "org.opencontainers.image.title": "loyalty-mock",
      "org.opencontainers.image.version": packageVersion(),
      "org.opencontainers.image.licenses": "MIT",
      "org.opencontainers.image.source": expect.stringMatching(/^https:\/\//),
    });
    expect(inspect(IMAGE, "{{.Config.User}}")).toBe("loyalty:loyalty");
    expect(inspect(IMAGE, "{{json .Config.Volumes}}")).toBe('{"/data":{}}');
    // The server writes where it listens to LOYALTY_MOCK_HEALTH_FILE, which the check reads (cli/health-check.ts).
    expect(inspect(IMAGE, "{{json .Config.Healthcheck.Test}}")).toBe(
      '["CMD","node","/app/dist/cli/health-main.js"]',
    );
    expect(inspect(IMAGE, "{{json .Config.Env}}")).toContain(
      "LOYALTY_MOCK_HEALTH_FILE=/tmp/loyalty-mock-health.json",
    );
  });

  it("holds what runs and nothing else: no sources, no tests, no dev dependencies", () => {
    const listing = docker(["run", "--rm", "--label", LABEL, "--entrypoint", "ls", IMAGE, "-A", "/app"]);
    expect(listing.split("\n").sort()).toEqual([
      "LICENSE",
      "dist",
      "fixtures",
      "node_modules",
      "package.json",
      "scenarios",
      "ui",
    ]);
    const modules = docker([
      "run",
      "--rm",
      "--label",
      LABEL,
      "--entrypoint",
      "ls",
      IMAGE,
      "/app/node_modules",
    ]);
    for (const dev of ["vitest", "typescript", "@biomejs", "testcontainers"])
      expect(modules).not.toContain(dev);
  });
});

describe("a container of the image", () => {
  it("serves on 0.0.0.0:3000 as uid 10001, warns in docker logs that control is open, and is healthy", async () => {
    const id = runDetached([...PUBLISH, "--health-interval", "1s"]);
    const body = await healthy(`http://127.0.0.1:${hostPort(id)}`);
    expect(body).toMatchObject({ status: "ok", control: "open", projects: 2 });
    expect(docker(["exec", id, "id", "-u"])).toBe("10001");
    await dockerHealthy(id);
    const said = logs(id);
    // An address to open, then every address it answers on (the container's own, here).
    expect(said).toMatch(
      /loyalty-mock listening on http:\/\/127\.0\.0\.1:3000\nloyalty-mock: listening on every address \(0\.0\.0\.0\): also http:\/\/[\d.]+:3000/,
    );
    expect(said.match(new RegExp(WARNING, "gm"))).toHaveLength(1);
  });

  it("follows LOYALTY_MOCK_PORT, health check included, and with a token says nothing and asks for it", async () => {
    const id = runDetached([
      ...["-p", "127.0.0.1::4100", "-e", "LOYALTY_MOCK_PORT=4100", "-e", "LOYALTY_MOCK_ADMIN_TOKEN=s3cret"],
      ...["--health-interval", "1s"],
    ]);
    const base = `http://127.0.0.1:${hostPort(id, 4100)}`;
    expect(await healthy(base, { [ADMIN]: "s3cret" })).toMatchObject({ control: "token" });
    expect((await fetch(`${base}/__mock/health`)).status).toBe(401);
    await dockerHealthy(id);
    expect(logs(id)).not.toMatch(WARNING);
  });

  it("stops on docker stop with exit 0, well inside the 10 s grace", async () => {
    const id = runDetached(PUBLISH);
    await healthy(`http://127.0.0.1:${hostPort(id)}`);
    const began = Date.now();
    docker(["stop", id], 30_000);
    const took = Date.now() - began;
    expect(inspect(id, "{{.State.ExitCode}}")).toBe("0");
    expect(took).toBeLessThan(5000);
  });

  it("follows --admin-token given as a flag: healthy, while the control API asks for that token", async () => {
    const id = runDetached([...PUBLISH, "--health-interval", "1s"], IMAGE, ["--admin-token", "from-a-flag"]);
    const base = `http://127.0.0.1:${hostPort(id)}`;
    expect(await healthy(base, { [ADMIN]: "from-a-flag" })).toMatchObject({ control: "token" });
    expect((await fetch(`${base}/__mock/health`)).status).toBe(401);
    await dockerHealthy(id);
  });

  it("follows --port given as a flag, and -p", async () => {
    const id = runDetached(["-p", "127.0.0.1::4000", "--health-interval", "1s"], IMAGE, ["--port", "4000"]);
    await healthy(`http://127.0.0.1:${hostPort(id, 4000)}`);
    await dockerHealthy(id);
    const short = runDetached(["-p", "127.0.0.1::4200", "--health-interval", "1s"], IMAGE, ["-p", "4200"]);
    await dockerHealthy(short);
  });

  it("follows a port the server chose at start (--port 0): it is the server that says where it listens", async () => {
    const id = runDetached(["--health-interval", "1s"], IMAGE, ["--port", "0"]);
    await dockerHealthy(id);
    const file = JSON.parse(docker(["exec", id, "cat", "/tmp/loyalty-mock-health.json"])) as { url: string };
    expect(file.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(file.url).not.toBe("http://127.0.0.1:0");
  });

  it("under --init (the server not PID 1), a second server started in it leaves the health check to the first", async () => {
    const id = runDetached(["--init", ...PUBLISH, "--health-interval", "1s"], IMAGE, [
      "--admin-token",
      "first",
    ]);
    await dockerHealthy(id);
    const owner = () => JSON.parse(docker(["exec", id, "cat", "/tmp/loyalty-mock-health.json"])) as object;
    const before = owner();
    // The same image, the same environment: 0.10.0's check took any such process for the server.
    const second = ["--port", "4300", "--admin-token", "second", "--exit-with-parent", "false"];
    docker(["exec", "-d", id, "node", "/app/dist/main.js", ...second]);
    // Listening (its health answers), it has seen the file and left it to the first.
    docker([
      "exec",
      id,
      "node",
      "/app/dist/main.js",
      "wait",
      "--url",
      "http://127.0.0.1:4300",
      "--admin-token",
      "second",
    ]);
    expect(owner()).toEqual(before);
    expect(owner()).toMatchObject({ admin_token: "first" });
    await dockerHealthy(id);
  });

  it("on docker stop, answers a request a 15 s delay fault holds, saves and exits 0 well inside the grace", async () => {
    const volume = unique("held");
    docker(["volume", "create", "--label", LABEL, volume]);
    const id = runDetached([
      ...[...PUBLISH, "-v", `${volume}:/data`, "-e", "LOYALTY_MOCK_STATE_FILE=/data/state.json"],
    ]);
    const base = `http://127.0.0.1:${hostPort(id)}`;
    await healthy(base);
    const rule = { method: "POST", path: "/v1/events", action: "delay", latency_ms: 15_000 };
    const added = await fetch(`${base}/__mock/projects/demo/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(rule),
    });
    expect(added.status).toBe(201);
    const held = fetch(`${base}/v1/events`, {
      method: "POST",
      headers: {
        "X-App-Id": "demo-app-id",
        "X-App-Token": "demo-app-token",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        event: "user_subscribed",
        customer: { source_id: "held" },
        metadata: { plan: "pro" },
      }),
    });
    // The rule has taken the request once it counts a match.
    for (let matched = 0; matched === 0; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const faults = await fetch(`${base}/__mock/projects/demo/faults`);
      matched = ((await faults.json()) as { faults: { matched: number }[] }).faults[0]?.matched ?? 0;
    }
    const began = Date.now();
    docker(["stop", id], 30_000);
    expect(Date.now() - began).toBeLessThan(5000);
    expect(inspect(id, "{{.State.ExitCode}}")).toBe("0");
    expect((await held).status).toBe(200);
    const again = runDetached([
      ...PUBLISH,
      "-v",
      `${volume}:/data`,
      "-e",
      "LOYALTY_MOCK_STATE_FILE=/data/state.json",
    ]);
    const next = `http://127.0.0.1:${hostPort(again)}`;
    await healthy(next);
    const state = (await (await fetch(`${next}/__mock/projects/demo/state`)).json()) as {
      customers: { source_id: string | null }[];
    };
    expect(state.customers.some((customer) => customer.source_id === "held")).toBe(true);
  });

  it("keeps state in a volume at /data across containers, with a read-only root and a tmpfs /tmp", async () => {
    const volume = unique("state");
    docker(["volume", "create", "--label", LABEL, volume]);
    const args = [...PUBLISH, "--read-only", "--tmpfs", "/tmp", "-v", `${volume}:/data`];
    const state = ["-e", "LOYALTY_MOCK_STATE_FILE=/data/state.json"];
    const first = runDetached([...args, ...state]);
    const base = `http://127.0.0.1:${hostPort(first)}`;
    await healthy(base);
    const res = await fetch(`${base}/__mock/projects`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ template: "demo", project_id: "kept" }),
    });
    expect(res.status).toBe(201);
    docker(["stop", first], 30_000);
    expect(inspect(first, "{{.State.ExitCode}}")).toBe("0");
    const second = runDetached([...args, ...state]);
    const again = `http://127.0.0.1:${hostPort(second)}`;
    expect((await healthy(again)).projects).toBe(3);
    expect((await fetch(`${again}/__mock/projects/kept`)).status).toBe(200);
  });

  it("serves a fixtures folder mounted read-only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-"));
    try {
      cpSync(join(ROOT, "fixtures", "demo"), join(dir, "only"), { recursive: true });
      // As a clone leaves them: readable by the container's user.
      for (const path of [
        dir,
        join(dir, "only"),
        ...readdirSync(join(dir, "only")).map((f) => join(dir, "only", f)),
      ])
        chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
      const id = runDetached([
        ...PUBLISH,
        "-v",
        `${dir}:/fixtures:ro`,
        "-e",
        "LOYALTY_MOCK_FIXTURES_DIR=/fixtures",
      ]);
      const base = `http://127.0.0.1:${hostPort(id)}`;
      expect((await healthy(base)).projects).toBe(1);
      const list = (await (await fetch(`${base}/__mock/projects`)).json()) as { projects: { id: string }[] };
      expect(list.projects.map((p) => p.id)).toEqual(["demo"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

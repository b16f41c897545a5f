import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoyaltyMockContainer, type StartedLoyaltyMockContainer } from "loyalty-mock/testcontainers";
import { afterAll, describe, expect, it } from "vitest";
import { TINY_KEYS, tinyLoyaltyDocument } from "../helpers/world.js";
import { docker, IMAGE, LABEL, removeAll } from "./docker.js";

/**
 * Issue 48: what the user-style file (testcontainers-module.test.ts) leaves out of `loyalty-mock/testcontainers`:
 * a fixtures folder copied in, a given admin token (and the open port refusing calls without it), the settings it
 * refuses, and fixtures with no key to hand out. Each container carries the run's label, so removeAll finds it.
 */
const [labelKey, labelValue] = LABEL.split("=") as [string, string];
const container = () => new LoyaltyMockContainer(IMAGE).withLabels({ [labelKey]: labelValue });
const dirs: string[] = [];
const started: StartedLoyaltyMockContainer[] = [];
afterAll(async () => {
  for (const mock of started) await mock.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  removeAll();
});

/** A fixtures folder as a user keeps one: made by mkdtemp (mode 0700), read by the image's own user all the same. */
function fixtures(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), JSON.stringify(content));
  }
  return dir;
}

describe("LoyaltyMockContainer's options", () => {
  it("withFixtures serves the folder's projects, the first of them the default; withAdminToken guards the control API", async () => {
    const dir = fixtures({ "tiny.json": tinyLoyaltyDocument({ codes: ["TINY-0001"] }) });
    const mock = await container().withFixtures(dir).withAdminToken("given-token").start();
    started.push(mock);
    expect({ id: mock.projectId, ...mock.headers }).toEqual({ id: "tiny", ...TINY_KEYS });
    expect(mock.adminToken).toBe("given-token");
    expect((await mock.control.projects()).map((project) => project.id)).toEqual(["tiny"]);
    const join = await fetch(`${mock.url}/v1/loyalties/camp_tiny/members`, {
      method: "POST",
      headers: { ...mock.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ customer: { source_id: "tiny@example.com" } }),
    });
    expect(((await join.json()) as { code: string }).code).toBe("TINY-0001");
    const open = await fetch(`${mock.url}/__mock/projects`);
    expect(open.status).toBe(401);
    expect((await mock.project.requests()).map((entry) => entry.operation)).toEqual(["addMember"]);
  });

  it("without withAdminToken, a token of its own: the control API is never open", async () => {
    const mock = await container().start();
    started.push(mock);
    expect(mock.adminToken).toMatch(/^[0-9a-f]{32}$/);
    expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(401);
    expect(await mock.control.health()).toMatchObject({ status: "ok", control: "token" });
    expect({ id: mock.projectId, ...mock.headers }).toEqual({
      id: "demo",
      "X-App-Id": "demo-app-id",
      "X-App-Token": "demo-app-token",
    });
  });

  it("withSettings refuses what is not a setting, and the settings the container sets itself", () => {
    for (const name of ["LOYALTY_MOCK_PORT", "LOYALTY_MOCK_HOST", "LOYALTY_MOCK_HEALTH_FILE", "PORT"])
      expect(() => container().withSettings({ [name]: "1" } as never)).toThrow(
        `LoyaltyMockContainer.withSettings: ${name} is not a setting it takes`,
      );
  });

  it("fixtures with no project that has a key: start() says so, and leaves no container running", async () => {
    const dir = fixtures({ "keyless/project.json": { id: "keyless" }, "keyless/api-keys.json": [] });
    const running = () =>
      docker(["ps", "-q", "--filter", `label=${LABEL}`])
        .split("\n")
        .filter(Boolean);
    expect(running()).toHaveLength(started.length);
    await expect(container().withFixtures(dir).start()).rejects.toThrow(
      "LoyaltyMockContainer: the fixtures have no project with an active API key",
    );
    expect(running()).toHaveLength(started.length);
  });
});

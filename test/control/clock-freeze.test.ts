import { describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { createApp, createRegistry, ManualClock } from "../../src/index.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";
import { control } from "../helpers/control.js";
import { moveClock, tokenFor, withToken } from "../helpers/control-steps.js";
import { expectError } from "../helpers/http.js";
import { DEMO_KEYS } from "../helpers/world.js";

/** Issue 28: LOYALTY_MOCK_FREEZE_CLOCK, and `freeze` on a project's clock through the control API. */

const FROZEN = "2026-01-15T08:00:00.000Z";

function world(freezeClock?: string) {
  const root = new ManualClock("2026-11-20T10:00:00.000Z");
  const registry = createRegistry({
    clock: root,
    documents: loadProjectDocuments(DEFAULT_FIXTURES_DIR),
    ...(freezeClock !== undefined && { freezeClock }),
  });
  return { root, registry, app: createApp({ registry }) };
}

const readClock = async (app: ReturnType<typeof world>["app"], project = "demo") =>
  (await control(app, { method: "GET", path: `/__mock/projects/${project}/clock` })).body;

describe("a frozen clock", () => {
  it("starts every project at the instant and stands still while the server's time runs", async () => {
    const { root, app } = world(FROZEN);
    root.advance(3600);
    expect(await readClock(app)).toMatchObject({ now: FROZEN, frozen: true });
    expect(await readClock(app, "other")).toMatchObject({ now: FROZEN, frozen: true });
  });

  it("moves only when told: advance_seconds and set move it and it stays frozen", async () => {
    const { root, app } = world(FROZEN);
    expect((await moveClock(app, "demo", { advance_seconds: 60 })).body).toMatchObject({
      now: "2026-01-15T08:01:00.000Z",
      frozen: true,
    });
    root.advance(600);
    expect((await readClock(app)).now).toBe("2026-01-15T08:01:00.000Z");
    await moveClock(app, "demo", { set: "2027-01-01T00:00:00Z" });
    root.advance(600);
    expect((await readClock(app)).now).toBe("2027-01-01T00:00:00.000Z");
  });

  it("token expiry follows it: a token lives until the frozen clock is moved past 900 s", async () => {
    const { root, app } = world(FROZEN);
    const token = await tokenFor(app, DEMO_KEYS);
    root.advance(3600);
    expect((await withToken(app, token)).status).toBe(200);
    await moveClock(app, "demo", { advance_seconds: 900 });
    expectError(await withToken(app, token), 401, { details: "The access token has expired" });
  });

  it("{freeze: false} lets it run from the moment it shows; {freeze: true} stops it again", async () => {
    const { root, app } = world(FROZEN);
    expect((await moveClock(app, "demo", { freeze: false })).body).toMatchObject({
      now: FROZEN,
      frozen: false,
    });
    root.advance(30);
    expect((await readClock(app)).now).toBe("2026-01-15T08:00:30.000Z");
    expect((await moveClock(app, "demo", { freeze: true })).body.frozen).toBe(true);
    root.advance(30);
    expect((await readClock(app)).now).toBe("2026-01-15T08:00:30.000Z");
    // A move and a freeze together: the clock stops at the moment set.
    const set = await moveClock(app, "other", { set: "2030-01-01T00:00:00Z", freeze: true });
    root.advance(30);
    expect(set.body).toMatchObject({ now: "2030-01-01T00:00:00.000Z", frozen: true });
    expect((await readClock(app, "other")).now).toBe("2030-01-01T00:00:00.000Z");
  });

  it("without the setting, {freeze: true} freezes one project's clock only", async () => {
    const { root, app } = world();
    await moveClock(app, "demo", { freeze: true });
    root.advance(10);
    expect(await readClock(app)).toMatchObject({ now: "2026-11-20T10:00:00.000Z", frozen: true });
    expect(await readClock(app, "other")).toMatchObject({ now: "2026-11-20T10:00:10.000Z", frozen: false });
  });

  it("a reset puts the clock back at the frozen instant", async () => {
    const { app } = world(FROZEN);
    await moveClock(app, "demo", { advance_seconds: 120 });
    await control(app, { method: "POST", path: "/__mock/projects/demo/reset" });
    expect(await readClock(app)).toMatchObject({ now: FROZEN, frozen: true });
  });

  const bad = [
    { body: { freeze: "yes" }, details: "Property .freeze should be boolean" },
    {
      body: { advance_seconds: 1, set: "2027-01-01T00:00:00Z", freeze: true },
      details: "Request body must have exactly one of advance_seconds and set",
    },
  ];
  for (const { body, details } of bad)
    it(`POST with ${JSON.stringify(body)} is 400`, async () => {
      const { app } = world(FROZEN);
      expectError(await moveClock(app, "demo", body), 400, { key: "invalid_payload", details });
    });
});

describe("freezing and moving in one call", () => {
  it("lands exactly on `set`, however the server's time runs between the steps of the call", async () => {
    // A root clock that moves a millisecond every time it is read, as a real one may between two statements.
    let now = Date.parse("2026-11-20T10:00:00.000Z");
    const registry = createRegistry({
      clock: { now: () => now++ },
      documents: loadProjectDocuments(DEFAULT_FIXTURES_DIR),
    });
    const app = createApp({ registry });
    const move = (body: object) =>
      control(app, { method: "POST", path: "/__mock/projects/demo/clock", body }).then((res) => res.body);
    expect(await move({ set: FROZEN, freeze: true })).toMatchObject({ now: FROZEN, frozen: true });
    expect(await move({ set: "2026-02-01T00:00:00.000Z", freeze: false })).toMatchObject({ frozen: false });
    expect(registry.get("demo").clock.now()).toBeGreaterThanOrEqual(Date.parse("2026-02-01T00:00:00.000Z"));
    expect(await move({ advance_seconds: 60, freeze: true })).toMatchObject({ frozen: true });
    const frozen = registry.get("demo").clock.now();
    expect(await move({ advance_seconds: 60 })).toMatchObject({
      now: new Date(frozen + 60_000).toISOString(),
    });
  });
});

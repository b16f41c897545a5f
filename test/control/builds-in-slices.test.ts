import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { createApp, createRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { BIG_KEYS, bigProject } from "../helpers/big-project.js";
import { useServer } from "../helpers/listen.js";
import { DEMO_KEYS, defaultDocuments } from "../helpers/world.js";

/**
 * The control calls that build a project (a reset, a snapshot's restore, a state import, a new project, every
 * project's reset) build it a slice at a time into a new project while the old one serves, then put it in place
 * in one step. Each test here starts such a call on a project of 6,000 cards, and once the server has started on
 * it, sends the operations (on another project, and on the same one): they are answered before the build is.
 * Nothing here is timed; what is checked is the order of the answers.
 */

const CARDS = 5000;
let big: ProjectDocument;
beforeAll(() => {
  big = bigProject(CARDS);
});
afterAll(() => {
  big = undefined as unknown as ProjectDocument;
});

const listen = useServer();

interface Answer {
  name: string;
  status: number;
  body: Record<string, unknown>;
}

async function world() {
  const registry = createRegistry({
    clock: new ManualClock("2026-11-20T10:00:00.000Z"),
    documents: [...defaultDocuments(), big],
    // The event loop gets a turn after every step of a few hundred records, rather than every 5 ms: a build of a
    // few thousand cards then gives requests tens of turns, however fast the machine.
    sliceMs: 0,
  });
  const { server, url } = await listen(createApp({ registry }));
  const order: string[] = [];
  /** Sends a request; its answer's name goes into `order` as it arrives. */
  const call = async (
    name: string,
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...options.headers },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    order.push(name);
    return { name, status: res.status, body };
  };
  return { registry, server, url, order, call };
}

/** Resolves once the server has taken a request for `path` and the event loop has turned once after it. */
function received(server: Server, method: string, path: string): Promise<void> {
  return new Promise((resolve) => {
    // Express has routed the request by the time this listener runs, and keeps the path it came with apart.
    const listener = (req: { method?: string; originalUrl?: string }) => {
      if (req.method !== method || req.originalUrl !== path) return;
      server.off("request", listener);
      setImmediate(resolve);
    };
    server.on("request", listener);
  });
}

/** A GET location of the demo project, or of big (a copy of it, so the same location). */
const location = (
  call: Awaited<ReturnType<typeof world>>["call"],
  name: string,
  keys: Record<string, string>,
) => call(name, "GET", "/v1/locations/loc_demo_circle", { headers: keys });

/** Starts `build`, and once the server is on it, sends a GET location to demo and to big. */
async function duringBuild(
  w: Awaited<ReturnType<typeof world>>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer[]> {
  const taken = received(w.server, method, path);
  const build = w.call("build", method, path, { body });
  await taken;
  return Promise.all([
    build,
    location(w.call, "other project", DEMO_KEYS),
    location(w.call, "same project", BIG_KEYS),
  ]);
}

describe("a project built in slices", () => {
  it("POST .../reset - GETs sent after it, on another project and on the same one, are answered first", async () => {
    const w = await world();
    const [reset, other, same] = await duringBuild(w, "POST", "/__mock/projects/big/reset");
    expect([reset?.status, other?.status, same?.status]).toEqual([200, 200, 200]);
    expect(w.order).toEqual(["other project", "same project", "build"]);
    expect(reset?.body).toMatchObject({ id: "big" });
  });

  it("POST .../snapshots/{name}/restore - the same", async () => {
    const w = await world();
    expect(
      (await w.call("save", "POST", "/__mock/projects/big/snapshots", { body: { name: "start" } })).status,
    ).toBe(201);
    const [restore, other, same] = await duringBuild(
      w,
      "POST",
      "/__mock/projects/big/snapshots/start/restore",
    );
    expect([restore?.status, other?.status, same?.status]).toEqual([200, 200, 200]);
    expect(w.order.slice(1)).toEqual(["other project", "same project", "build"]);
  });

  it("PUT .../state - the same, the document validated in slices too", async () => {
    const w = await world();
    const document = exportProject(w.registry.get("big"));
    const [put, other, same] = await duringBuild(w, "PUT", "/__mock/projects/big/state", document);
    expect([put?.status, other?.status, same?.status]).toEqual([200, 200, 200]);
    expect(w.order).toEqual(["other project", "same project", "build"]);
    expect((put?.body.vouchers as unknown[] | undefined)?.length).toBe(big.vouchers.length);
  });

  it("POST /__mock/projects from a template - the same", async () => {
    const w = await world();
    const [created, other, same] = await duringBuild(w, "POST", "/__mock/projects", {
      template: "big",
      project_id: "big-copy",
    });
    expect([created?.status, other?.status, same?.status]).toEqual([201, 200, 200]);
    expect(w.order).toEqual(["other project", "same project", "build"]);
    expect(w.registry.get("big-copy").vouchers.size).toBe(big.vouchers.length);
  });

  it("POST /__mock/reset - the same", async () => {
    const w = await world();
    const [reset, other, same] = await duringBuild(w, "POST", "/__mock/reset");
    expect([reset?.status, other?.status, same?.status]).toEqual([200, 200, 200]);
    expect(w.order).toEqual(["other project", "same project", "build"]);
  });
});

describe("builds of one project, and what happens to it meanwhile", () => {
  it("a write to the project during its reset is answered first, and the reset replaces it", async () => {
    const w = await world();
    const taken = received(w.server, "POST", "/__mock/projects/big/reset");
    const reset = w.call("build", "POST", "/__mock/projects/big/reset");
    await taken;
    const joined = await w.call("join", "POST", "/v1/loyalties/camp_demo_loyalty/members", {
      headers: BIG_KEYS,
      body: { customer: { source_id: "during@example.com" } },
    });
    expect(joined.status).toBe(200);
    expect((await reset).status).toBe(200);
    expect(w.order).toEqual(["join", "build"]);
    expect(w.registry.get("big").customers.findBySourceId("during@example.com")).toBeUndefined();
  });

  it("two builds of a project are answered in the order asked: a reset, then an import asked during it", async () => {
    const w = await world();
    const exported = exportProject(w.registry.get("big"));
    const small = { ...exported, vouchers: exported.vouchers.slice(0, exported.vouchers.length - CARDS) };
    const taken = received(w.server, "POST", "/__mock/projects/big/reset");
    const reset = w.call("reset", "POST", "/__mock/projects/big/reset");
    await taken;
    // The import is short, and waits for the reset: installed after it, it is what the project holds.
    const put = w.call("import", "PUT", "/__mock/projects/big/state", { body: small });
    expect([(await reset).status, (await put).status]).toEqual([200, 200]);
    expect(w.order).toEqual(["reset", "import"]);
    expect(w.registry.get("big").vouchers.size).toBe(small.vouchers.length);
  });

  it("a project deleted during its reset is 404 when the reset ends, and a project created then under its id stays", async () => {
    const w = await world();
    const taken = received(w.server, "POST", "/__mock/projects/big/reset");
    const reset = w.call("reset", "POST", "/__mock/projects/big/reset");
    await taken;
    expect((await w.call("delete", "DELETE", "/__mock/projects/big")).status).toBe(200);
    const created = w.call("create", "POST", "/__mock/projects", { body: { project: { id: "big" } } });
    const answer = await reset;
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ key: "not_found", details: "Cannot find project with id big" });
    // The create waited for the reset, then made the project the document holds (no cards), which stays.
    expect((await created).status).toBe(201);
    expect(w.registry.get("big").vouchers.size).toBe(0);
    expect(w.registry.fixturesOf("big").vouchers).toEqual([]);
  });

  it("a fixture key another project took during the reset is 409 when it ends, and nothing changes", async () => {
    const w = await world();
    const before = w.registry.get("big");
    const taken = received(w.server, "POST", "/__mock/projects/big/reset");
    const reset = w.call("reset", "POST", "/__mock/projects/big/reset");
    await taken;
    expect((await w.call("drop key", "DELETE", "/__mock/projects/big/keys/big-app-id")).status).toBe(200);
    const moved = await w.call("take key", "POST", "/__mock/projects/demo/keys", {
      body: { app_id: BIG_KEYS["X-App-Id"], app_token: BIG_KEYS["X-App-Token"] },
    });
    expect(moved.status).toBe(201);
    const answer = await reset;
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      key: "conflict",
      details: "App id big-app-id is used by another project",
    });
    expect(w.registry.get("big")).toBe(before);
    expect(w.registry.projectForAppId(BIG_KEYS["X-App-Id"])?.id).toBe("demo");
  });

  it("a document refused at its last record changes nothing, and the server answered meanwhile", async () => {
    const w = await world();
    const before = w.registry.get("big");
    const document = exportProject(before);
    const last = document.vouchers.length - 1;
    const broken = {
      ...document,
      vouchers: document.vouchers.map((v, i) => (i === last ? { ...v, code: 7 } : v)),
    };
    const [put, other] = await duringBuild(w, "PUT", "/__mock/projects/big/state", broken);
    expect(other?.status).toBe(200);
    expect(put?.status).toBe(400);
    expect(put?.body).toMatchObject({
      key: "invalid_payload",
      details: `$.vouchers[${last}].code: should be string`,
    });
    expect(w.order.at(-1)).toBe("build");
    expect(w.registry.get("big")).toBe(before);
  });
});

import { describe, expect, it } from "vitest";
import { type ProjectDocument, projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import type { FeedBatch } from "../../src/emulation/change-feed.js";
import { createRegistry, ManualClock } from "../../src/index.js";
import { refusalOf } from "../helpers/refusal.js";
import { defaultDocuments } from "../helpers/world.js";

/**
 * The project registry through its own API: what a mutation run (docs/internals/testing.md, "Mutation testing") of
 * src/domain/projects/ found no test to fail on. Whether the server draws from a seed, a posted project's mark
 * (it draws past its fixtures after a reset) kept through a refused creation, and what the live feed is told.
 */

const clock = () => new ManualClock("2026-11-20T10:00:00.000Z");
const documentOf = (input: object): ProjectDocument => projectDocumentSchema.parse(input);

describe("whether the server draws from a seed (the request ids follow it)", () => {
  it("not without a seed, the fixtures' projects having none of their own", () => {
    expect(createRegistry({ clock: clock(), documents: defaultDocuments() }).seeded).toBe(false);
  });

  it("with the server's seed, before any project is installed", () => {
    expect(createRegistry({ clock: clock(), seed: "server" }).seeded).toBe(true);
  });

  it("once a project with a seed of its own is added, or restored from a state file", () => {
    const added = createRegistry({ clock: clock(), documents: defaultDocuments() });
    added.add(documentOf({ project: { id: "own", seed: "own-seed" } }));
    expect(added.seeded).toBe(true);

    const restored = createRegistry({ clock: clock(), documents: defaultDocuments() });
    const document = documentOf({ project: { id: "own", seed: "own-seed" } });
    const project = restored.restore(document, document);
    expect(project.ids.seeded).toBe(true);
    expect(restored.seeded).toBe(true);
  });
});

describe("a posted project's mark (fixturesPosted)", () => {
  const posted = documentOf({
    project: { id: "posted" },
    api_keys: [{ app_id: "posted-app", app_token: "t" }],
  });

  it("is set by create, and kept when the same document is posted again and refused", () => {
    const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
    registry.create(posted);
    expect(registry.fixturesPosted("posted")).toBe(true);
    expect(refusalOf(() => registry.create(posted))).toEqual({
      status: 409,
      details: "A project with id posted exists already",
    });
    expect(registry.fixturesPosted("posted")).toBe(true);
  });

  it("is not set on a loaded project by a refused create of its id", () => {
    const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
    expect(refusalOf(() => registry.create(documentOf({ project: { id: "demo" } })))).toEqual({
      status: 409,
      details: "A project with id demo exists already",
    });
    expect(registry.fixturesPosted("demo")).toBe(false);
  });

  it("is taken back when create refuses a new id, so a project loaded under it later is not marked", () => {
    const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
    const taken = documentOf({
      project: { id: "late" },
      api_keys: [{ app_id: "demo-app-id", app_token: "t" }],
    });
    expect(refusalOf(() => registry.create(taken))).toEqual({
      status: 409,
      details: "App id demo-app-id is used by another project",
    });
    registry.add(documentOf({ project: { id: "late" }, api_keys: [{ app_id: "late-app", app_token: "t" }] }));
    expect(registry.fixturesPosted("late")).toBe(false);
  });

  it("is not set by a restore that does not say the fixtures were posted", () => {
    const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
    registry.restore(posted, posted);
    expect(registry.fixturesPosted("posted")).toBe(false);
    registry.remove("posted");
    registry.restore(posted, posted, { posted: true });
    expect(registry.fixturesPosted("posted")).toBe(true);
  });

  it("is asked of a project the registry does not know: 404", () => {
    const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
    expect(refusalOf(() => registry.fixturesPosted("nope"))).toEqual({
      status: 404,
      details: "Cannot find project with id nope",
    });
  });
});

it("the live feed of a project removed is told the project changed", () => {
  const registry = createRegistry({ clock: clock(), documents: defaultDocuments() });
  const seen: FeedBatch[] = [];
  registry.feed.subscribe("other", (batch) => seen.push(batch));
  registry.remove("other");
  registry.feed.flush();
  expect(seen).toEqual([{ topics: ["project"], collections: [], requests: [], requests_count: 0 }]);
});

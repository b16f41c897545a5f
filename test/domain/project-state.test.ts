import { describe, expect, it } from "vitest";
import { authenticate } from "../../src/domain/auth/authenticate.js";
import { blockKey, createKey } from "../../src/domain/auth/keys.js";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { ApiError } from "../../src/domain/errors.js";
import { assignCard } from "../../src/domain/members/assign-card.js";
import { Project } from "../../src/domain/projects/project.js";
import { COLLECTION_NAMES, type ProjectDocument } from "../../src/domain/projects/project-document.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { parseProjectDocument, replaceProjectState } from "../../src/domain/projects/state-import.js";
import { credentialsFromHeaders } from "../../src/http/operations/credentials.js";
import { operation } from "../../src/http/operations/table.js";
import { refusal } from "../helpers/refusal.js";
import { buildWorld, type World } from "../helpers/world.js";

/** Export, validate as an import would, build a project from it, export again. */
function roundTrip(world: World, project: Project): ProjectDocument {
  return exportProject(new Project(parseProjectDocument(exportProject(project)), world.clock));
}

/** Changes of every kind a project goes through, made through the domain as the routes make them. */
function useDemo(world: World): string {
  const { registry, demo } = world;
  const key = demo.apiKeys.get("demo-app-id");
  const token = issueToken(registry, demo, key, { grant_type: "client_credentials", scope: "api" });
  createKey(registry, demo, {
    app_id: "made-later",
    app_token: "secret-made-later",
    permissions: ["events"],
  });
  blockKey(registry, demo, "demo-readonly-app-id");
  demo.clock.advance(300);
  demo.settings = { ...demo.settings, token_grace_seconds: 5 };
  const card = demo.vouchers.list().find((voucher) => voucher.campaign_id === "camp_demo_loyalty");
  if (!card?.loyalty_card) throw new Error("no demo card");
  demo.vouchers.put({
    ...card,
    loyalty_card: {
      ...card.loyalty_card,
      points: card.loyalty_card.points + 250,
      balance: card.loyalty_card.balance + 250,
    },
  });
  demo.events.put({
    id: "evcus_made_in_test",
    object: "event",
    type: "user_subscribed",
    customer_id: "cust_demo_alice",
    referral: null,
    loyalty: null,
    metadata: { plan: "gold" },
    earned: [],
    created_at: demo.clock.iso(),
  });
  return token.access_token;
}

describe("exporting a project's state", () => {
  it("writes every collection of the fixture format, and the project's settings and clock", () => {
    const world = buildWorld();
    const exported = exportProject(world.demo);
    expect(Object.keys(exported).sort()).toEqual(["project", ...COLLECTION_NAMES].sort());
    expect(exported.project).toEqual({
      id: "demo",
      name: "Demo project",
      // The demo's fixtures name the tier structure its audience sees (issue 45).
      settings: { audience_tier_structures: ["lts_d0000000000000001"] },
      clock: { offset_ms: 0 },
    });
    expect(exported.vouchers).toHaveLength(world.demo.vouchers.size);
    const held = exported.vouchers.find((voucher) => voucher.code === "DEMO-HELD-2345");
    expect(held).toMatchObject({
      holder_id: "cust_demo_alice",
      loyalty_card: { points: 1450, balance: 1250 },
    });
    // Cards are written as stored: a fixture card keeps leaving out what follows from the rest (as fixtures may),
    // so a million-card export stays the size of its fixtures; a card the API wrote is written whole.
    expect(held?.campaign).toBeUndefined();
    const assigned = assignCard(
      world.demo,
      "camp_demo_loyalty",
      { customer: { source_id: "exported" } },
      world.registry.defaults.caps,
    ).voucher;
    expect(exportProject(world.demo).vouchers.find((voucher) => voucher.id === assigned.id)).toMatchObject({
      holder_id: assigned.holder_id,
      publish: { count: 1 },
      campaign: "Demo Loyalty Program",
    });
  });

  it("round-trips the default projects unchanged", () => {
    const world = buildWorld();
    for (const project of [world.demo, world.other])
      expect(roundTrip(world, project)).toEqual(exportProject(project));
  });

  it("round-trips a used project: tokens, keys, a blocked key, the clock, settings, points and events", () => {
    const world = buildWorld();
    const accessToken = useDemo(world);
    const exported = exportProject(world.demo);
    expect(exported.project).toMatchObject({
      settings: { token_grace_seconds: 5 },
      clock: { offset_ms: 300_000 },
    });
    expect(exported.tokens).toEqual([
      expect.objectContaining({
        access_token: accessToken,
        app_id: "demo-app-id",
        issued_at: "2026-11-20T10:00:00.000Z",
        expires_at: "2026-11-20T10:15:00.000Z",
        revoke_at: null,
      }),
    ]);
    expect(exported.api_keys.find((key) => key.app_id === "demo-readonly-app-id")).toMatchObject({
      status: "BLOCKED",
      blocked_at: "2026-11-20T10:00:00.000Z",
    });
    expect(exported.events.map((event) => event.id)).toContain("evcus_made_in_test");
    expect(roundTrip(world, world.demo)).toEqual(exported);
  });

  it("shares nothing with the project", () => {
    const world = buildWorld();
    const exported = exportProject(world.demo);
    const first = exported.vouchers[0];
    if (!first) throw new Error("no vouchers");
    first.code = "CHANGED";
    exported.api_keys.length = 0;
    expect(world.demo.vouchers.get(first.id).code).not.toBe("CHANGED");
    expect(world.demo.apiKeys.size).toBeGreaterThan(0);
  });
});

describe("replacing a project's state", () => {
  it("puts the document in place: its keys and tokens authenticate, the old ones no longer do", () => {
    const world = buildWorld();
    const oldToken = useDemo(world);
    const source = buildWorld();
    const newToken = issueToken(source.registry, source.demo, source.demo.apiKeys.get("demo-app-id"), {
      grant_type: "client_credentials",
      scope: "api",
    }).access_token;
    const document = exportProject(source.demo);
    document.api_keys = document.api_keys.map((key) =>
      key.app_id === "demo-app-id" ? { ...key, app_id: "renamed-app-id" } : key,
    );
    document.tokens = document.tokens.map((token) => ({ ...token, app_id: "renamed-app-id" }));

    const project = replaceProjectState(world.registry, "demo", document);

    expect(world.registry.get("demo")).toBe(project);
    const policy = operation("getLocation").auth;
    expect(
      authenticate(world.registry, { appId: "renamed-app-id", appToken: "demo-app-token" }, policy).project,
    ).toBe(project);
    expect(() =>
      authenticate(world.registry, { appId: "demo-app-id", appToken: "demo-app-token" }, policy),
    ).toThrow(ApiError);
    expect(() =>
      authenticate(world.registry, { appId: "made-later", appToken: "secret-made-later" }, policy),
    ).toThrow(ApiError);
    expect(() =>
      authenticate(world.registry, credentialsFromHeaders({ authorization: `Bearer ${oldToken}` }), policy),
    ).toThrow(ApiError);
    expect(
      authenticate(world.registry, credentialsFromHeaders({ authorization: `Bearer ${newToken}` }), policy)
        .project,
    ).toBe(project);
    expect(project.clock.offsetMs).toBe(0);
    expect(exportProject(project)).toEqual(parseProjectDocument(document));
  });

  it("leaves the fixtures alone: a reset goes back to them, not to the imported state", () => {
    const world = buildWorld();
    const fixtures = exportProject(world.demo);
    const document = exportProject(world.demo);
    document.customers = document.customers.filter((customer) => customer.id === "cust_demo_erin");
    document.segments = document.segments.map((segment) => ({ ...segment, customer_ids: [] }));
    document.vouchers = document.vouchers.map((voucher) => ({ ...voucher, holder_id: null }));
    document.publications = [];
    document.events = [];
    document.project.clock = { offset_ms: -86_400_000 };
    replaceProjectState(world.registry, "demo", document);
    expect(world.registry.get("demo").customers.size).toBe(1);
    expect(world.registry.get("demo").clock.iso()).toBe("2026-11-19T10:00:00.000Z");

    world.registry.reset("demo");
    expect(exportProject(world.registry.get("demo"))).toEqual(fixtures);
  });

  it("leaves other projects alone", () => {
    const world = buildWorld();
    const other = exportProject(world.other);
    replaceProjectState(world.registry, "demo", { project: { id: "demo" } });
    expect(world.registry.get("demo").vouchers.size).toBe(0);
    expect(world.registry.get("other")).toBe(world.other);
    expect(exportProject(world.other)).toEqual(other);
    expect(
      authenticate(
        world.registry,
        { appId: "other-app-id", appToken: "other-app-token" },
        operation("getLocation").auth,
      ).project,
    ).toBe(world.other);
  });

  const otherTokenOf = (world: World) =>
    issueToken(world.registry, world.other, world.other.apiKeys.get("other-app-id"), {
      grant_type: "client_credentials",
      scope: "api",
    }).access_token;

  // Each row breaks one rule; the refusal names it and nothing changes.
  const BAD: {
    name: string;
    edit: (document: ProjectDocument & Record<string, unknown>, world: World) => unknown;
    status: number;
    details: string;
  }[] = [
    { name: "not an object", edit: () => [], status: 400, details: "$: should be object" },
    {
      name: "a field of the wrong type",
      edit: (d) => {
        (d.vouchers[3] as Record<string, unknown>).code = 42;
        return d;
      },
      status: 400,
      details: "$.vouchers[3].code: should be string",
    },
    {
      name: "an unknown property",
      edit: (d) => {
        (d.customers[0] as Record<string, unknown>).nickname = "Al";
        return d;
      },
      status: 400,
      details: "$.customers[0].nickname: unknown property; the fixture format has no such field",
    },
    {
      name: "an unknown collection",
      edit: (d) => ({ ...d, coupons: [] }),
      status: 400,
      details: "$.coupons: unknown property; the fixture format has no such field",
    },
    {
      name: "a dangling reference",
      edit: (d) => {
        d.customers = d.customers.filter((customer) => customer.id !== "cust_demo_bob");
        return d;
      },
      status: 400,
      details: expect.stringMatching(
        /^\$\.vouchers\[\d+\]\.holder_id: no customer with id cust_demo_bob in this project$/,
      ),
    },
    {
      name: "a duplicate access token",
      edit: (d, world) => {
        const token = exportProject(world.demo).tokens[0];
        if (!token) throw new Error("no token");
        d.tokens = [token, token];
        return d;
      },
      status: 400,
      details: expect.stringMatching(/^\$\.tokens\[1\]\.access_token: duplicate access_token /),
    },
    {
      name: "a clock offset out of range",
      edit: (d) => {
        d.project.clock = { offset_ms: 4e14 };
        return d;
      },
      status: 400,
      details: "$.project.clock.offset_ms: should be <= 315569433599999",
    },
    {
      name: "another project's id",
      edit: (d) => {
        d.project.id = "other";
        d.api_keys = [];
        return d;
      },
      status: 400,
      details: "$.project.id: should be demo, the project being replaced",
    },
    {
      name: "an app id of another project",
      edit: (d) => {
        d.api_keys.push({
          ...(d.api_keys[0] as ProjectDocument["api_keys"][number]),
          app_id: "other-app-id",
        });
        return d;
      },
      status: 409,
      details: "App id other-app-id is used by another project",
    },
    {
      name: "an access token of another project",
      edit: (d, world) => {
        const token = exportProject(world.demo).tokens[0];
        if (!token) throw new Error("no token");
        d.tokens = [{ ...token, access_token: otherTokenOf(world) }];
        return d;
      },
      status: 409,
      details: "An access token of the document belongs to another project",
    },
  ];

  for (const row of BAD)
    it(`refuses ${row.name} (${row.status}) and changes nothing`, () => {
      const world = buildWorld();
      const demoToken = useDemo(world);
      const before = exportProject(world.demo);
      const fixturesBefore = structuredClone(world.registry.fixturesOf("demo"));
      const document = row.edit(
        exportProject(world.demo) as ProjectDocument & Record<string, unknown>,
        world,
      );

      const error = refusal(() => replaceProjectState(world.registry, "demo", document));
      expect({ status: error.status, details: error.details }).toEqual({
        status: row.status,
        details: row.details,
      });

      expect(world.registry.get("demo")).toBe(world.demo);
      expect(exportProject(world.demo)).toEqual(before);
      expect(world.registry.fixturesOf("demo")).toEqual(fixturesBefore);
      const policy = operation("getLocation").auth;
      expect(
        authenticate(world.registry, credentialsFromHeaders({ authorization: `Bearer ${demoToken}` }), policy)
          .project,
      ).toBe(world.demo);
      expect(
        authenticate(
          world.registry,
          { appId: "made-later", appToken: "secret-made-later" },
          operation("trackEvent").auth,
        ).project,
      ).toBe(world.demo);
    });

  it("refuses an unknown project with a 404 naming it", () => {
    const world = buildWorld();
    const error = refusal(() => replaceProjectState(world.registry, "nope", { project: { id: "nope" } }));
    expect(error).toMatchObject({
      status: 404,
      key: "not_found",
      resourceType: "project",
      resourceId: "nope",
    });
  });
});

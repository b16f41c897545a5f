import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { type RunningServer, startServer } from "../../src/index.js";
import { control } from "../helpers/control.js";
import { buildWorld } from "../helpers/world.js";

/**
 * Every field an export holds, compared with the document written out below rather than with another export: a
 * field the exporter dropped (the project's seed, its frozen clock, a collection) would otherwise vanish from both
 * sides of the comparison. The document sets every header field to a value other than its default and holds a
 * record in every collection, each record whole (every field given), so the server's own defaults add nothing and
 * the export must be the document itself: over the control API, from exportProject, after PUT, and after a restart
 * from the state file.
 */
const EVERY_FIELD = {
  project: {
    id: "every-field",
    name: "Every field",
    settings: {
      v2_auth_mode: "either",
      token_grace_seconds: 30,
      rate_limit: {
        limit: 500,
        window_seconds: 120,
      },
      journal_size: 40,
    },
    clock: {
      offset_ms: 86400000,
      frozen_at: "2026-12-01T08:30:00.123Z",
    },
    seed: "every-field-seed",
  },
  api_keys: [
    {
      app_id: "every-app-id",
      app_token: "every-app-token",
      name: "Other project's server-side key",
      permissions: ["api", "loyalties", "locations", "events"],
      ip_allowlist: [],
      status: "ACTIVE",
      blocked_at: null,
      client_id: "cli_every0000000000000001",
    },
  ],
  tokens: [
    {
      access_token: "every-field-token-0000000000000001",
      app_id: "every-app-id",
      client_id: "every-app-id",
      scope: ["api"],
      permissions: [],
      ip_allowlist: [],
      issued_at: "2026-12-01T08:20:00.000Z",
      expires_at: "2026-12-01T08:35:00.000Z",
      revoke_at: null,
    },
  ],
  locations: [
    {
      id: "loc_other_circle",
      object: "location",
      name: "Prague Old Town",
      shape: {
        type: "circle",
        format: "distance",
        distance: {
          center: "geo:50.0875,14.4213",
          radius: "800 m",
        },
      },
      created_at: "2025-11-10T08:00:00.000Z",
      updated_at: null,
    },
  ],
  campaigns: [
    {
      id: "camp_other_loyalty",
      name: "Other Loyalty Program",
      description: "The other project's loyalty program: ten cards, none handed out.",
      campaign_type: "LOYALTY_PROGRAM",
      type: "STATIC",
      join_once: true,
      auto_join: false,
      active: true,
      start_date: null,
      expiration_date: null,
      category: null,
      category_id: null,
      categories: [],
      voucher: {
        type: "LOYALTY_CARD",
        loyalty_card: {
          points: 0,
        },
        code_config: {
          charset: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
          prefix: "",
          postfix: "",
          pattern: "OTHER-####-####",
        },
        is_referral_code: false,
      },
      metadata: {},
      created_at: "2025-11-10T09:00:00.000Z",
      updated_at: null,
      object: "campaign",
    },
  ],
  vouchers: [
    {
      id: "v_JvIPpNF40MQcLINjfcqa234F",
      code: "OTHER-MYU8-DAEE",
      campaign_id: "camp_other_loyalty",
      type: "LOYALTY_CARD",
      discount: null,
      gift: null,
      loyalty_card: {
        points: 50,
        balance: 50,
      },
      start_date: null,
      expiration_date: null,
      validity_timeframe: null,
      validity_day_of_week: null,
      active: true,
      additional_info: null,
      metadata: {},
      is_referral_code: false,
      created_at: "2025-11-10T09:30:00.000Z",
      updated_at: "2026-12-01T08:30:00.123Z",
      holder_id: "cust_other_zoe",
      object: "voucher",
      campaign: "Other Loyalty Program",
      category: null,
      category_id: null,
      categories: [],
      assets: {
        qr: {
          id: "U2FsdGVkX1LEYEgS5qDz_xFL6lvf2CbWOFOdjI-_Su",
          url: "https://assets.loyalty-mock.invalid/api/v1/assets/qr/U2FsdGVkX1LEYEgS5qDz_xFL6lvf2CbWOFOdjI-_Su",
        },
        barcode: {
          id: "U2FsdGVkX1umeBrZnrwJqfl-BoEYjiQx2xjJu__L-b",
          url: "https://assets.loyalty-mock.invalid/api/v1/assets/barcode/U2FsdGVkX1umeBrZnrwJqfl-BoEYjiQx2xjJu__L-b",
        },
      },
      redemption: {
        quantity: null,
        redeemed_quantity: 0,
        redeemed_points: 0,
        object: "list",
        url: "/v1/vouchers/OTHER-MYU8-DAEE/redemptions?page=1&limit=10",
      },
      publish: {
        object: "list",
        count: 1,
        url: "/v1/vouchers/OTHER-MYU8-DAEE/publications?page=1&limit=10",
      },
    },
    {
      id: "v_6FoWs7JhXX7StiLpnC3XsSwT",
      code: "OTHER-4YH5-993Z",
      campaign_id: "camp_other_loyalty",
      type: "LOYALTY_CARD",
      discount: null,
      gift: null,
      loyalty_card: {
        points: 0,
        balance: 0,
      },
      start_date: null,
      expiration_date: null,
      validity_timeframe: null,
      validity_day_of_week: null,
      active: true,
      additional_info: null,
      metadata: {},
      is_referral_code: false,
      created_at: "2025-11-10T09:30:00.000Z",
      updated_at: null,
      object: "voucher",
    },
  ],
  customers: [
    {
      id: "cust_other_zoe",
      source_id: "zoe@example.org",
      name: "Zoe Novak",
      description: null,
      email: "zoe@example.org",
      phone: null,
      birthdate: null,
      address: null,
      metadata: {
        favourite_store: "Prague",
      },
      created_at: "2025-12-03T10:00:00.000Z",
      updated_at: null,
      object: "customer",
    },
  ],
  publications: [
    {
      id: "pub_every_zoe",
      object: "publication",
      created_at: "2026-01-02T00:00:00.000Z",
      customer_id: "cust_other_zoe",
      campaign_id: "camp_other_loyalty",
      voucher_id: "v_JvIPpNF40MQcLINjfcqa234F",
      channel: "API",
      source_id: "every-0001",
      metadata: {
        origin: "test",
      },
      result: "SUCCESS",
    },
  ],
  segments: [
    {
      id: "seg_every",
      name: "Everyone",
      type: "static",
      customer_ids: ["cust_other_zoe"],
      created_at: "2026-02-20T09:00:00.000Z",
      object: "segment",
    },
  ],
  tier_structures: [
    {
      id: "lts_e0000000000000001",
      name: "Other Tiers",
      created_at: "2025-11-10T10:00:00.000Z",
      updated_at: null,
      object: "tier_structure",
      tiers: [
        {
          id: "lt_e0000000000000001",
          name: "Member",
          qualification_rules: {
            type: "POINTS",
            min_value: 0,
            max_value: 999,
          },
          downgrade: {
            type: "INHERIT",
          },
          metadata: {},
          created_at: "2025-11-10T10:00:00.000Z",
          updated_at: null,
          object: "tier",
          tier_structure_id: "lts_e0000000000000001",
        },
      ],
    },
  ],
  incentives: [
    {
      id: "linc_e0000000000000001",
      name: "25 points",
      type: "POINTS",
      status: "ACTIVE",
      stock: 1000,
      points: {
        value: 25,
        card_definition_id: "lcdef_e000000000000001",
      },
      created_at: "2025-11-10T10:10:00.000Z",
      updated_at: null,
      object: "incentive",
    },
  ],
  earning_rules: [
    {
      id: "lern_e0000000000000001",
      object: "earning_rule",
      name: "50 points for each subscription",
      status: "ACTIVE",
      campaign_id: "camp_other_loyalty",
      event: "user_subscribed",
      loyalty: {
        type: "FIXED",
        points: 50,
      },
      incentive_id: null,
      created_at: "2025-11-10T11:00:00.000Z",
      updated_at: null,
    },
  ],
  event_schemas: [
    {
      id: "ms_other_user_subscribed",
      name: "user_subscribed",
      schema: {
        properties: {
          plan: {
            type: "string",
            array: false,
            optional: false,
          },
        },
      },
      created_at: "2025-11-10T10:30:00.000Z",
      updated_at: null,
      object: "custom-event-schema",
    },
  ],
  events: [
    {
      id: "evcus_QH6wbXOojp9yJ93SxEFWTc5E",
      object: "event",
      type: "user_subscribed",
      customer_id: "cust_other_zoe",
      referral: null,
      loyalty: null,
      metadata: {
        plan: "pro",
      },
      earned: [
        {
          earning_rule_id: "lern_e0000000000000001",
          voucher_id: "v_JvIPpNF40MQcLINjfcqa234F",
          points: 50,
        },
      ],
      created_at: "2026-12-01T08:30:00.123Z",
    },
  ],
  webhooks: [
    {
      id: "wh_0000000000000000a1",
      object: "webhook",
      url: "http://127.0.0.1:4000/hooks",
      events: ["voucher.published"],
      active: true,
      headers: {},
      secret: "fixture-secret",
      created_at: "2026-11-01T00:00:00.000Z",
    },
  ],
};

/** The collections in the order an export writes them: the order of the fixture format's reference. */
const ORDER = [
  "project",
  "api_keys",
  "tokens",
  "locations",
  "campaigns",
  "vouchers",
  "customers",
  "publications",
  "segments",
  "tier_structures",
  "incentives",
  "earning_rules",
  "event_schemas",
  "events",
  "webhooks",
];

describe("a project's export holds every field it was given", () => {
  it("GET /__mock/projects/{id}/state answers the posted document, field for field and in order", async () => {
    const world = buildWorld();
    expect(
      (await control(world.app, { method: "POST", path: "/__mock/projects", body: EVERY_FIELD })).status,
    ).toBe(201);
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/every-field/state" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EVERY_FIELD);
    expect(Object.keys(res.body)).toEqual(ORDER);
    expect(res.body.project.seed).toBe("every-field-seed");
    expect(exportProject(world.registry.get("every-field"))).toEqual(EVERY_FIELD);
  });

  it("PUT …/state takes the document over another project's state and GET gives every field back", async () => {
    const world = buildWorld();
    const other = structuredClone(EVERY_FIELD);
    other.project.id = "other";
    other.api_keys[0] = {
      ...other.api_keys[0],
      app_id: "other-app-id",
      app_token: "other-app-token",
    } as never;
    other.tokens[0] = { ...other.tokens[0], app_id: "other-app-id", client_id: "other-app-id" } as never;
    const put = await control(world.app, {
      method: "PUT",
      path: "/__mock/projects/other/state",
      body: other,
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(other);
    expect((await control(world.app, { method: "GET", path: "/__mock/projects/other/state" })).body).toEqual(
      other,
    );
  });
});

it("exportProject (the library's) gives a project without a seed no seed field, not one left undefined", () => {
  const { demo } = buildWorld();
  expect(Object.keys(exportProject(demo).project)).toEqual(["id", "name", "settings", "clock"]);
});

describe("a restart from the state file brings back every field", () => {
  let dir: string;
  const running: RunningServer[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-every-field-"));
  });
  afterEach(async () => {
    for (const server of running.splice(0)) await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const server = await startServer({ port: 0, stateFile: join(dir, "state.json"), stateSync: "always" });
    running.push(server);
    return server;
  };
  const exported = async (server: RunningServer) =>
    (await fetch(`${server.url}/__mock/projects/every-field/state`)).json();

  for (const compactFirst of [false, true])
    it(`from ${compactFirst ? "a snapshot" : "the change log"}: the document as posted`, async () => {
      const first = await start();
      const posted = await fetch(`${first.url}/__mock/projects`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(EVERY_FIELD),
      });
      expect(posted.status).toBe(201);
      if (compactFirst) await first.stateStore?.compact();
      await first.close();
      const second = await start();
      expect(await exported(second)).toEqual(EVERY_FIELD);
      const project = second.registry.get("every-field");
      // Read from the project itself, not through the exporter.
      expect({ name: project.name, seed: project.seed, settings: project.settings }).toEqual({
        name: EVERY_FIELD.project.name,
        seed: EVERY_FIELD.project.seed,
        settings: EVERY_FIELD.project.settings,
      });
      expect(new Date(project.clock.now()).toISOString()).toBe(EVERY_FIELD.project.clock.frozen_at);
    });
});

/**
 * A card's `publish` summary, when the document leaves it out, follows from the publications that name the card:
 * a held card with exactly the one publication its holder implies is stored as given (reading it gives the same
 * count either way, so only an export can tell), while a count that differs is written into the card.
 */
describe("a card without a publish summary, in an export", () => {
  const card = (id: string, code: string, holder: string | null) => ({
    ...EVERY_FIELD.vouchers[1],
    id,
    code,
    ...(holder !== null && { holder_id: holder }),
  });
  const publication = (id: string, voucher: string) => ({
    ...EVERY_FIELD.publications[0],
    id,
    source_id: id,
    voucher_id: voucher,
  });
  const document = {
    ...EVERY_FIELD,
    project: { ...EVERY_FIELD.project, id: "publish-counts" },
    api_keys: [],
    tokens: [],
    events: [],
    earning_rules: [],
    vouchers: [
      card("v_held_once", "OTHER-AAAA-0001", "cust_other_zoe"),
      card("v_held_twice", "OTHER-AAAA-0002", "cust_other_zoe"),
      card("v_open_once", "OTHER-AAAA-0003", null),
    ],
    publications: [
      publication("pub_once", "v_held_once"),
      publication("pub_twice_1", "v_held_twice"),
      publication("pub_twice_2", "v_held_twice"),
      publication("pub_open", "v_open_once"),
    ],
  };

  it("keeps a held card with its one publication as given, and writes a count that differs", async () => {
    const world = buildWorld();
    const posted = await control(world.app, { method: "POST", path: "/__mock/projects", body: document });
    expect(posted.status).toBe(201);
    const res = await control(world.app, { method: "GET", path: "/__mock/projects/publish-counts/state" });
    const summary = (code: string, count: number) => ({
      object: "list",
      count,
      url: `/v1/vouchers/${code}/publications?page=1&limit=10`,
    });
    expect(res.body.vouchers).toEqual([
      document.vouchers[0],
      { ...document.vouchers[1], publish: summary("OTHER-AAAA-0002", 2) },
      { ...document.vouchers[2], publish: summary("OTHER-AAAA-0003", 1) },
    ]);
    expect(Object.keys(res.body.vouchers[0])).not.toContain("publish");
  });
});

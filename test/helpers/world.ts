import type { Express } from "express";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import type { Project } from "../../src/domain/projects/project.js";
import {
  type ProjectDocument,
  type ProjectDocumentInput,
  projectDocumentSchema,
} from "../../src/domain/projects/project-document.js";
import type { SpeedTricks } from "../../src/http/fast/index.js";
import type { ExampleIds } from "../../src/http/operations/row.js";
import type { GivenDefaults } from "../../src/index.js";
import { createApp, createRegistry, type ProjectRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/platform/fixtures.js";

let defaults: ProjectDocument[] | undefined;

/** The embedded default dataset, read once per test file; every world gets its own deep copy through Project. */
export function defaultDocuments(): ProjectDocument[] {
  defaults ??= loadProjectDocuments(DEFAULT_FIXTURES_DIR);
  return defaults;
}

export interface World {
  clock: ManualClock;
  registry: ProjectRegistry;
  app: Express;
  demo: Project;
  other: Project;
}

/** A fresh server world over the default fixtures, with a clock that moves only when the test moves it. */
export function buildWorld(
  options: {
    defaults?: GivenDefaults;
    bodyLimit?: number;
    adminToken?: string;
    speedTricks?: SpeedTricks;
  } = {},
): World {
  const clock = new ManualClock("2026-11-20T10:00:00.000Z");
  const registry = createRegistry({
    clock,
    documents: defaultDocuments(),
    defaults: options.defaults ?? {},
  });
  const app = createApp({
    registry,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    ...(options.adminToken !== undefined && { adminToken: options.adminToken }),
    ...(options.speedTricks !== undefined && { speedTricks: options.speedTricks }),
  });
  return { clock, registry, app, demo: registry.get("demo"), other: registry.get("other") };
}

export const DEMO_KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" } as const;

/**
 * The demo project's records an example call of every operation is made from (each row's `example`): its card
 * program, a circle location, its first tier structure (tiers up to 4,999 points, so `n` from 10,000 is a free
 * range), a draft incentive no earning rule uses, and an event whose schema asks for no metadata.
 */
export function demoIds(n = 0, customer = `example-${n}@example.com`): ExampleIds {
  return {
    campaign: "camp_demo_loyalty",
    location: "loc_demo_circle",
    event: { name: "cart_abandoned" },
    tierStructure: "lts_d0000000000000001",
    incentive: "linc_d0000000000000001",
    customer,
    n: 10_000 + n,
  };
}
export const OTHER_KEYS = { "X-App-Id": "other-app-id", "X-App-Token": "other-app-token" } as const;

/**
 * Everything a project's operations can change, as one string: compare before and after a refused request to show
 * it changed nothing (FIDELITY.md, "Rejected request").
 */
export function storeSnapshot(project: Project): string {
  return JSON.stringify({
    customers: project.customers.list(),
    publications: project.publications.list(),
    vouchers: project.vouchers.list(),
    events: project.events.list(),
    campaigns: project.campaigns.list(),
    tokens: project.tokens.list().length,
  });
}

/** A small project of its own, for rules the default dataset cannot reach (an exhausted campaign, say). */
export function worldWith(document: ProjectDocumentInput): World & { project: Project } {
  const clock = new ManualClock("2026-11-20T10:00:00.000Z");
  const registry = createRegistry({
    clock,
    documents: [...defaultDocuments(), projectDocumentSchema.parse(document)],
  });
  const app = createApp({ registry });
  return {
    clock,
    registry,
    app,
    demo: registry.get("demo"),
    other: registry.get("other"),
    project: registry.get(document.project.id),
  };
}

export const TINY_KEYS = { "X-App-Id": "tiny-app-id", "X-App-Token": "tiny-app-token" } as const;

/** A loyalty campaign with the given cards and code config, in a project of its own (keys TINY_KEYS). */
export function tinyLoyaltyDocument(options: {
  codes: string[];
  type?: "STATIC" | "AUTO_UPDATE";
  codeConfig?: Record<string, unknown>;
  joinOnce?: boolean;
}): ProjectDocumentInput {
  return {
    project: { id: "tiny" },
    api_keys: [{ app_id: TINY_KEYS["X-App-Id"], app_token: TINY_KEYS["X-App-Token"] }],
    campaigns: [
      {
        id: "camp_tiny",
        name: "Tiny Program",
        campaign_type: "LOYALTY_PROGRAM",
        type: options.type ?? "STATIC",
        join_once: options.joinOnce ?? true,
        voucher: {
          type: "LOYALTY_CARD",
          loyalty_card: { points: 0 },
          ...(options.codeConfig && { code_config: options.codeConfig }),
        },
        created_at: "2026-01-01T00:00:00.000Z",
      },
    ],
    vouchers: options.codes.map((code, i) => ({
      id: `v_tiny${String(i).padStart(6, "0")}`,
      code,
      campaign_id: "camp_tiny",
      type: "LOYALTY_CARD",
      loyalty_card: { points: 0, balance: 0 },
      created_at: "2026-01-01T00:00:00.000Z",
    })),
  } as ProjectDocumentInput;
}

/**
 * A stored token record as a state document or a posted project holds it: issued at the test clock's start, for
 * the service's 15 minutes, on a key `k` no project has (what a test that moves a token between projects needs).
 */
export function tokenRecord(accessToken: string) {
  return {
    access_token: accessToken,
    app_id: "k",
    client_id: "c",
    scope: ["api"],
    permissions: ["api"],
    ip_allowlist: [],
    issued_at: "2026-11-20T10:00:00.000Z",
    expires_at: "2026-11-20T10:15:00.000Z",
  };
}

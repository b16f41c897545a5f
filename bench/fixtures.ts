import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memberId, writeMembers } from "./members-fixtures.js";

/**
 * The benchmark's own project, written as a fixtures folder: pools large enough that no round runs out (cards to
 * assign, tier structures to fill, incentives to delete), so every measured request is a success of the real
 * operation. Ids and codes are derived from counters, so the same sizes give the same bytes.
 */

export const BENCH_KEYS = { "X-App-Id": "bench-app-id", "X-App-Token": "bench-app-token" } as const;
export const BENCH_CAMPAIGN = "camp_bench_loyalty";
export const SMALL_CAMPAIGN = "camp_bench_small";
export const BENCH_LOCATION = "loc_bench_circle";
export const BENCH_EVENT = "bench_event";
const CREATED = "2026-01-01T00:00:00.000Z";

export const LOCATION = {
  id: BENCH_LOCATION,
  object: "location",
  name: "Warsaw city centre",
  shape: {
    type: "circle",
    format: "distance",
    distance: { center: "geo:52.2297,21.0122", radius: "1.5 km" },
  },
  created_at: "2025-11-02T08:00:00.000Z",
  updated_at: null,
};

export interface BenchSizes {
  cards: number;
  /** A second loyalty campaign, `camp_bench_small`, with this many cards (the scale run's 1k baseline). */
  smallCards?: number;
  tierStructures: number;
  incentives: number;
  /**
   * The first this many cards of the big campaign are held, each by a customer of its own with its publication and
   * one recorded event that earned it 10 points (see writeMembers): a program with members, for the views' bench.
   */
  members?: number;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
export const tierStructureId = (i: number) => `lts_b${hex(i, 17)}`;
export const incentiveId = (i: number) => `linc_b${hex(i, 17)}`;

/** Writes `dir/bench/*.json` (one project, `bench`) and returns `dir`, ready for FIXTURES_DIR. */
export function writeBenchFixtures(dir: string, sizes: BenchSizes): string {
  rmSync(dir, { recursive: true, force: true });
  const project = join(dir, "bench");
  mkdirSync(project, { recursive: true });
  const write = (name: string, value: unknown) => writeFileSync(join(project, name), JSON.stringify(value));
  write("project.json", { id: "bench", name: "Benchmark" });
  write("api-keys.json", [{ app_id: BENCH_KEYS["X-App-Id"], app_token: BENCH_KEYS["X-App-Token"] }]);
  write("locations.json", [LOCATION]);
  const campaign = (id: string, name: string) => ({
    id,
    name,
    campaign_type: "LOYALTY_PROGRAM",
    type: "STATIC",
    join_once: true,
    voucher: {
      type: "LOYALTY_CARD",
      loyalty_card: { points: 0 },
      code_config: { pattern: "BENCH-########" },
    },
    created_at: CREATED,
  });
  write("campaigns.json", [
    campaign(BENCH_CAMPAIGN, "Bench Loyalty"),
    ...(sizes.smallCards ? [campaign(SMALL_CAMPAIGN, "Bench Small")] : []),
  ]);
  writeCards(join(project, "vouchers.json"), [
    { campaignId: BENCH_CAMPAIGN, count: sizes.cards, prefix: "BENCH", held: sizes.members ?? 0 },
    { campaignId: SMALL_CAMPAIGN, count: sizes.smallCards ?? 0, prefix: "SMALL" },
  ]);
  write("event-schemas.json", [
    {
      id: "ms_bench_event",
      name: BENCH_EVENT,
      schema: { properties: { plan: { type: "string", array: false, optional: false } } },
      created_at: CREATED,
    },
  ]);
  write(
    "tier-structures.json",
    Array.from({ length: sizes.tierStructures }, (_, i) => ({
      id: tierStructureId(i),
      name: `Bench structure ${i}`,
      created_at: CREATED,
      updated_at: null,
      object: "tier_structure",
      tiers: [],
    })),
  );
  write(
    "incentives.json",
    Array.from({ length: sizes.incentives }, (_, i) => ({
      id: incentiveId(i),
      name: `Bench incentive ${i}`,
      type: "POINTS",
      status: "ACTIVE",
      stock: 1000,
      points: { value: 10, card_definition_id: "lcdef_b00000000000001" },
      created_at: CREATED,
      updated_at: null,
      object: "incentive",
    })),
  );
  if (sizes.members) writeMembers(project, sizes.members);
  return dir;
}

const cardId = (prefix: string, i: number) => `v_${prefix.toLowerCase()}${String(i).padStart(17, "0")}`;

/** A million cards is a few hundred megabytes of JSON: written in chunks, never built as one string. */
function writeCards(
  file: string,
  pools: { campaignId: string; count: number; prefix: string; held?: number }[],
  /** Go on with an array already begun in `file` (`append`: after elements of its own), instead of a new file. */
  continuing?: { append: boolean },
): void {
  const chunks: string[] = continuing ? [] : ["["];
  let first = !continuing?.append;
  if (!continuing) writeFileSync(file, "");
  for (const { campaignId, count, prefix, held = 0 } of pools) {
    for (let i = 0; i < count; i++) {
      const card = {
        id: cardId(prefix, i),
        code: `${prefix}-${String(i).padStart(8, "0")}`,
        campaign_id: campaignId,
        type: "LOYALTY_CARD",
        loyalty_card: i < held ? { points: 10, balance: 10 } : { points: 0, balance: 0 },
        created_at: CREATED,
        ...(i < held && { holder_id: memberId(i) }),
      };
      chunks.push(`${first ? "" : ","}${JSON.stringify(card)}`);
      first = false;
      if (chunks.length >= 10_000) {
        writeFileSync(file, chunks.join(""), { flag: "a" });
        chunks.length = 0;
      }
    }
  }
  chunks.push("]");
  writeFileSync(file, chunks.join(""), { flag: "a" });
}

/** The default fixtures' key pair, location and loyalty campaign (fixtures/demo). */
export const DEMO_KEYS = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" } as const;
export const DEMO_LOCATION = "loc_demo_circle";
export const DEMO_CAMPAIGN = "camp_demo_loyalty";

/**
 * Writes `dir` as a copy of the default fixtures (`defaults`, the package's fixtures folder) whose demo loyalty
 * campaign holds `cards` more unpublished cards after its own, and returns `dir`, ready for FIXTURES_DIR: a big
 * project as a user writes one, beside the other default projects, rather than the bench's generated one.
 */
export function writeDefaultsWithCards(dir: string, defaults: string, cards: number): string {
  rmSync(dir, { recursive: true, force: true });
  cpSync(defaults, dir, { recursive: true, filter: (source) => !source.endsWith(".md") });
  const file = join(dir, "demo", "vouchers.json");
  const own = JSON.parse(readFileSync(file, "utf8")) as unknown[];
  const text = JSON.stringify(own, null, 2);
  writeFileSync(file, text.slice(0, text.lastIndexOf("]")).trimEnd());
  writeCards(file, [{ campaignId: DEMO_CAMPAIGN, count: cards, prefix: "LARGE" }], {
    append: own.length > 0,
  });
  return dir;
}

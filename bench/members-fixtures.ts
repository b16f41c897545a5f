import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The members of the benchmark's program, for the views' bench (`npm run bench:views`): customer i holds card i of
 * the big campaign (bench/fixtures.ts writes it held, at 10 points), with its publication and one recorded event
 * that earned it those 10 points, twenty seconds after the one before; an earning rule that pays 10 points for
 * each bench event; and tier structures with points tiers, so the overview has a distribution to count.
 */

export const memberId = (i: number) => `cust_bench${String(i).padStart(8, "0")}`;
export const memberSourceId = (i: number) => `bench-member-${i}`;
const FIRST_EVENT = Date.parse("2026-11-01T00:00:00.000Z");
const CREATED = "2026-01-01T00:00:00.000Z";
const CAMPAIGN = "camp_bench_loyalty";

/** Writes `name` as a JSON array of `count` records, a slice at a time rather than one string of it all. */
function writeArray(file: string, count: number, record: (i: number) => unknown): void {
  writeFileSync(file, "[");
  for (let start = 0; start < count; start += 10_000) {
    const slice: string[] = [];
    for (let i = start; i < Math.min(count, start + 10_000); i++)
      slice.push(`${i === 0 ? "" : ","}${JSON.stringify(record(i))}`);
    writeFileSync(file, slice.join(""), { flag: "a" });
  }
  writeFileSync(file, "]", { flag: "a" });
}

export function writeMembers(project: string, members: number): void {
  const card = (i: number) => `v_bench${String(i).padStart(17, "0")}`;
  writeArray(join(project, "customers.json"), members, (i) => ({
    id: memberId(i),
    source_id: memberSourceId(i),
    name: `Member ${i}`,
    created_at: CREATED,
  }));
  writeArray(join(project, "publications.json"), members, (i) => ({
    id: `pub_bench${String(i).padStart(8, "0")}`,
    created_at: CREATED,
    customer_id: memberId(i),
    campaign_id: CAMPAIGN,
    voucher_id: card(i),
  }));
  writeArray(join(project, "events.json"), members, (i) => ({
    id: `evcus_bench${String(i).padStart(8, "0")}`,
    type: "bench_event",
    customer_id: memberId(i),
    metadata: { plan: "pro" },
    earned: [{ earning_rule_id: "lern_b0000000000000001", voucher_id: card(i), points: 10 }],
    created_at: new Date(FIRST_EVENT + i * 20_000).toISOString(),
  }));
  const at = (id: string, name: string, min: number, max?: number) => ({
    id,
    name,
    qualification_rules: { type: "POINTS", min_value: min, ...(max !== undefined && { max_value: max }) },
    created_at: CREATED,
  });
  writeFileSync(
    join(project, "earning-rules.json"),
    JSON.stringify([
      {
        id: "lern_b0000000000000001",
        campaign_id: CAMPAIGN,
        event: "bench_event",
        loyalty: { points: 10 },
        created_at: CREATED,
      },
    ]),
  );
  writeFileSync(
    join(project, "tier-structures.json"),
    JSON.stringify(
      [1, 2, 3].map((s) => ({
        id: `lts_b${s.toString(16).padStart(17, "0")}`,
        name: `Bench tiers ${s}`,
        created_at: CREATED,
        tiers: [
          at(`lt_b${s}1`, "Bronze", 0, 14 * s),
          at(`lt_b${s}2`, "Silver", 15 * s, 99 * s),
          at(`lt_b${s}3`, "Gold", 100 * s),
        ],
      })),
    ),
  );
}

import type { Express } from "express";
import { customerSchema } from "../../src/domain/customers/customer.js";
import type { RecordedEvent } from "../../src/domain/events/event.js";
import type { ProjectDocument } from "../../src/domain/projects/project-document.js";
import { publicationSchema } from "../../src/domain/publications/publication.js";
import { voucherSchema } from "../../src/domain/vouchers/voucher.js";
import { createApp, createRegistry, type ProjectRegistry } from "../../src/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { defaultDocuments } from "./world.js";

/** The world's clock: events are dated one minute apart up to it. */
export const EARNINGS_NOW = "2026-11-20T10:00:00.000Z";
const RULE = "lern_d0000000000000001";

/**
 * The demo project with `members` more members (customer `cust_m<i>`, source id `m<i>@example.com`, card
 * `v_m<i>`, its publication) and `earnings` recorded events of 100 points each, one a minute up to the clock: the
 * first `heavy` on member 0's card, the rest in turn on the others. Built as records, not validated one by one, so
 * 150,000 earnings take a fraction of a second rather than the minutes they would take through the API.
 */
export function demoWithEarnings(options: {
  members: number;
  earnings: number;
  heavy?: number;
}): ProjectDocument {
  const { members, earnings, heavy = 0 } = options;
  const demo = defaultDocuments().find((document) => document.project.id === "demo") as ProjectDocument;
  const now = Date.parse(EARNINGS_NOW);
  const cardOf = (j: number) => (j < heavy || members === 1 ? 0 : 1 + ((j - heavy) % (members - 1)));
  const counts = new Array<number>(members).fill(0);
  const events: RecordedEvent[] = [];
  for (let j = 0; j < earnings; j++) {
    const member = cardOf(j);
    counts[member] = (counts[member] ?? 0) + 1;
    events.push({
      id: `evcus_m${j}`,
      object: "event",
      type: "user_subscribed",
      customer_id: `cust_m${member}`,
      referral: null,
      loyalty: null,
      metadata: { plan: "pro" },
      earned: [{ earning_rule_id: RULE, voucher_id: `v_m${member}`, points: 100 }],
      created_at: new Date(now - (earnings - j) * 60_000).toISOString(),
    });
  }
  const created = "2026-01-01T00:00:00.000Z";
  const ids = Array.from({ length: members }, (_, i) => i);
  return {
    ...demo,
    customers: demo.customers.concat(
      ids.map((i) =>
        customerSchema.parse({
          id: `cust_m${i}`,
          source_id: `m${i}@example.com`,
          name: `Member ${i}`,
          created_at: created,
        }),
      ),
    ),
    vouchers: demo.vouchers.concat(
      ids.map((i) =>
        voucherSchema.parse({
          id: `v_m${i}`,
          code: `MEMBER-${i}`,
          campaign_id: "camp_demo_loyalty",
          type: "LOYALTY_CARD",
          loyalty_card: { points: 100 * (counts[i] ?? 0), balance: 100 * (counts[i] ?? 0) },
          holder_id: `cust_m${i}`,
          created_at: created,
        }),
      ),
    ),
    publications: demo.publications.concat(
      ids.map((i) =>
        publicationSchema.parse({
          id: `pub_m${i}`,
          created_at: created,
          customer_id: `cust_m${i}`,
          campaign_id: "camp_demo_loyalty",
          voucher_id: `v_m${i}`,
        }),
      ),
    ),
    events: demo.events.concat(events),
  };
}

/** A server world of that one project, on a clock that moves only when the test moves it. */
export function earningsWorld(document: ProjectDocument): { app: Express; registry: ProjectRegistry } {
  const registry = createRegistry({ clock: new ManualClock(EARNINGS_NOW), documents: [document] });
  return { app: createApp({ registry }), registry };
}

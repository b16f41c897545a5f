import request from "supertest";
import { describe, expect, it } from "vitest";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

describe("GET /__mock/projects/{projectId}/vouchers - filters read through an index", () => {
  it("answers by holder_id and code exactly what a scan of every card answers", async () => {
    const { app, demo } = buildWorld();
    // A new member, so a card held through the operation is looked up too. They join the on-demand program
    // first, so the order they got their cards in is not the cards' order in the store.
    const early = await request(app)
      .post("/v1/loyalties/camp_demo_ondemand/members")
      .set(DEMO_KEYS)
      .send({ customer: { source_id: "new@example.com" } });
    expect(early.status).toBe(200);
    const member = await request(app)
      .post("/v1/loyalties/camp_demo_loyalty/members")
      .set(DEMO_KEYS)
      .send({ customer: { source_id: "new@example.com" } });
    expect(member.status).toBe(200);
    const all = JSON.parse(JSON.stringify(demo.vouchers.list())) as { holder_id?: string; code: string }[];
    const holders = [...new Set(all.map((v) => v.holder_id).filter(Boolean)), "cust_nobody"] as string[];
    expect(holders.length).toBeGreaterThan(4);
    // Alice holds two cards: the path that scans rather than trust the index's order.
    expect(all.filter((v) => v.holder_id === "cust_demo_alice")).toHaveLength(2);
    const newcomer = all.filter((v) => v.holder_id === member.body.holder_id).map((v) => v.code);
    expect(newcomer).toEqual([member.body.code, early.body.code]);
    for (const holder of holders) {
      const res = await request(app).get(`/__mock/projects/demo/vouchers?holder_id=${holder}&limit=10000`);
      expect(res.body.vouchers).toEqual(all.filter((v) => v.holder_id === holder));
    }
    for (const code of ["DEMO-HELD-2345", "REF-ALICE", "NO-SUCH-CODE"]) {
      const res = await request(app).get(`/__mock/projects/demo/vouchers?code=${code}`);
      expect(res.body.vouchers).toEqual(all.filter((v) => v.code === code));
      expect(res.body.total).toBe(code === "NO-SUCH-CODE" ? 0 : 1);
    }
    const both = await request(app).get(
      "/__mock/projects/demo/vouchers?code=REF-ALICE&holder_id=cust_demo_bob",
    );
    expect(both.body.total).toBe(0);
  });
});

describe("GET /__mock/projects/{projectId}/{collection} - a page from one walk of the stored records", () => {
  it("answers every filter, offset and limit as completing and filtering every record would", async () => {
    const { app, demo } = buildWorld();
    await request(app)
      .post("/v1/loyalties/camp_demo_loyalty/members")
      .set(DEMO_KEYS)
      .send({ customer: { source_id: "walk@example.com" } });
    const all = JSON.parse(JSON.stringify(demo.vouchers.list())) as Record<string, unknown>[];
    const queries: [Record<string, string>, (v: Record<string, unknown>) => boolean][] = [
      [{}, () => true],
      [{ campaign_id: "camp_demo_loyalty" }, (v) => v.campaign_id === "camp_demo_loyalty"],
      [{ type: "GIFT_VOUCHER" }, (v) => v.type === "GIFT_VOUCHER"],
      [{ active: "false" }, (v) => v.active === false],
      [
        { campaign_id: "camp_demo_loyalty", active: "true" },
        (v) => v.campaign_id === "camp_demo_loyalty" && v.active === true,
      ],
    ];
    for (const [filters, keep] of queries)
      for (const [offset, limit] of [
        [0, 1],
        [0, 100],
        [3, 7],
        [1000, 50],
        [5000, 10],
      ] as const) {
        const query = new URLSearchParams({ ...filters, offset: String(offset), limit: String(limit) });
        const res = await request(app).get(`/__mock/projects/demo/vouchers?${query}`);
        const matching = all.filter(keep);
        expect(res.body.total).toBe(matching.length);
        expect(res.body.vouchers).toEqual(matching.slice(offset, offset + limit));
      }
  });
});

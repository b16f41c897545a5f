import { describe, expect, it } from "vitest";
import type { ProjectDocumentInput } from "../../src/domain/projects/project-document.js";
import { invalidity, isUsable } from "../../src/domain/vouchers/validity.js";
import { expectError, send } from "../helpers/http.js";
import {
  buildWorld,
  DEMO_KEYS,
  storeSnapshot,
  TINY_KEYS,
  tinyLoyaltyDocument,
  type World,
  worldWith,
} from "../helpers/world.js";

/**
 * spec/service.md, the voucher object: `start_date` "The voucher is inactive before this moment", `expiration_date`
 * "The voucher is inactive after this moment". Both moments themselves are inside the window: a card is usable at
 * the very millisecond it starts and at the very millisecond it expires, and not one millisecond outside.
 */

const START = "2727-01-01T00:00:00.000Z"; // DEMO-LATE-2727's start_date
const EXPIRY = "2025-12-31T23:59:59.999Z"; // DEMO-EXPD-2525's expiration_date
const ms = (iso: string, delta: number) => new Date(Date.parse(iso) + delta).toISOString();

function join(world: World, body: unknown) {
  return send(world.app, {
    method: "POST",
    path: "/v1/loyalties/camp_demo_loyalty/members",
    headers: DEMO_KEYS,
    body,
  });
}

describe("POST /v1/loyalties/{campaignId}/members - a named card at the exact instants of its validity", () => {
  it("one millisecond before its start_date is 400 voucher_not_active; at the start_date itself it is assigned", async () => {
    const world = buildWorld();
    world.demo.clock.set(ms(START, -1));
    const before = storeSnapshot(world.demo);
    expectError(await join(world, { customer: { source_id: "early" }, voucher: "DEMO-LATE-2727" }), 400, {
      key: "voucher_not_active",
      message: "Voucher not active",
      details: `Voucher 'v_Tip7E39uS5PavecX0d48Lwjo' (DEMO-LATE-2727) is not active yet; it starts at ${START}`,
    });
    expect(storeSnapshot(world.demo)).toBe(before);

    world.demo.clock.set(START);
    const res = await join(world, { customer: { source_id: "on-time" }, voucher: "DEMO-LATE-2727" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "DEMO-LATE-2727", start_date: START, updated_at: START });
  });

  it("one millisecond after its expiration_date is 400 voucher_expired; at the expiration_date itself it is assigned", async () => {
    const world = buildWorld();
    world.demo.clock.set(ms(EXPIRY, 1));
    const before = storeSnapshot(world.demo);
    expectError(await join(world, { customer: { source_id: "late" }, voucher: "DEMO-EXPD-2525" }), 400, {
      key: "voucher_expired",
      message: "Voucher expired",
      details: `Voucher 'v_fqGSCFKw0WIGJiWTwoI4Wdr0' (DEMO-EXPD-2525) has already expired; it expired at ${EXPIRY}`,
    });
    expect(storeSnapshot(world.demo)).toBe(before);

    world.demo.clock.set(EXPIRY);
    const res = await join(world, { customer: { source_id: "just-in-time" }, voucher: "DEMO-EXPD-2525" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "DEMO-EXPD-2525", expiration_date: EXPIRY, updated_at: EXPIRY });
  });
});

/** A campaign of three cards: the first starts at START, the second expires at EXPIRY, the third always open. */
function windowedWorld() {
  const document = tinyLoyaltyDocument({ codes: ["W-STARTS", "W-EXPIRES", "W-ALWAYS"], joinOnce: false });
  const [starts, expires] = document.vouchers as { start_date?: string; expiration_date?: string }[];
  if (!starts || !expires) throw new Error("tinyLoyaltyDocument made fewer cards than asked");
  starts.start_date = "2030-06-01T00:00:00.000Z";
  expires.expiration_date = "2030-06-01T00:00:00.000Z";
  return worldWith(document as ProjectDocumentInput);
}

describe("POST /v1/loyalties/{campaignId}/members - the next open card at the exact instants of validity", () => {
  const assign = (world: World, source: string) =>
    send(world.app, {
      method: "POST",
      path: "/v1/loyalties/camp_tiny/members",
      headers: TINY_KEYS,
      body: { customer: { source_id: source } },
    });

  it("a card whose start_date is one millisecond ahead is passed over; at its start_date it is the next", async () => {
    const world = windowedWorld();
    world.project.clock.set("2030-05-31T23:59:59.999Z");
    // W-STARTS is not usable yet; W-EXPIRES still is (it expires at the same instant, later than now).
    expect((await assign(world, "a")).body.code).toBe("W-EXPIRES");
    expect((await assign(world, "b")).body.code).toBe("W-ALWAYS");
    const other = windowedWorld();
    other.project.clock.set("2030-06-01T00:00:00.000Z");
    expect((await assign(other, "a")).body.code).toBe("W-STARTS");
  });

  it("a card at its expiration_date is still the next; one millisecond later it is passed over", async () => {
    const world = windowedWorld();
    world.project.clock.set("2030-06-01T00:00:00.000Z");
    expect((await assign(world, "a")).body.code).toBe("W-STARTS");
    expect((await assign(world, "b")).body.code).toBe("W-EXPIRES");
    const other = windowedWorld();
    other.project.clock.set("2030-06-01T00:00:00.001Z");
    expect((await assign(other, "a")).body.code).toBe("W-STARTS");
    expect((await assign(other, "b")).body.code).toBe("W-ALWAYS");
  });
});

describe("the validity rule itself (src/domain/vouchers/validity.ts)", () => {
  const card = (extra: {
    active?: boolean;
    start_date?: string | null;
    expiration_date?: string | null;
  }) => ({
    id: "v_x",
    code: "X",
    active: true,
    start_date: null,
    expiration_date: null,
    ...extra,
  });
  const at = (iso: string) => Date.parse(iso);
  const T = "2030-06-01T12:00:00.000Z";

  it("start_date: usable from that millisecond on", () => {
    expect(isUsable(card({ start_date: T }), at(T) - 1)).toBe(false);
    expect(isUsable(card({ start_date: T }), at(T))).toBe(true);
    expect(invalidity(card({ start_date: T }), at(T) - 1)?.key).toBe("voucher_not_active");
    expect(invalidity(card({ start_date: T }), at(T))).toBeUndefined();
  });

  it("expiration_date: usable up to and including that millisecond", () => {
    expect(isUsable(card({ expiration_date: T }), at(T))).toBe(true);
    expect(isUsable(card({ expiration_date: T }), at(T) + 1)).toBe(false);
    expect(invalidity(card({ expiration_date: T }), at(T))).toBeUndefined();
    expect(invalidity(card({ expiration_date: T }), at(T) + 1)?.key).toBe("voucher_expired");
  });

  it("a window of one millisecond is open exactly then", () => {
    const one = card({ start_date: T, expiration_date: T });
    expect([at(T) - 1, at(T), at(T) + 1].map((now) => isUsable(one, now))).toEqual([false, true, false]);
    expect([at(T) - 1, at(T), at(T) + 1].map((now) => invalidity(one, now)?.key)).toEqual([
      "voucher_not_active",
      undefined,
      "voucher_expired",
    ]);
  });

  it("a switched-off card is disabled whatever its dates say, inside or outside its window", () => {
    for (const now of [at(T) - 1, at(T), at(T) + 1]) {
      const off = card({ active: false, start_date: T, expiration_date: T });
      expect(isUsable(off, now)).toBe(false);
      expect(invalidity(off, now)?.key).toBe("voucher_disabled");
    }
    expect(isUsable(card({}), 0)).toBe(true);
    expect(invalidity(card({}), 0)).toBeUndefined();
  });
});

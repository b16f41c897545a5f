import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { ChangeLog } from "../../src/persistence/change-log.js";
import { buildWorld } from "../helpers/world.js";

function lines(text: string): { o: string; p?: string; c?: string; k?: string; r?: unknown }[] {
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("ChangeLog: what a save appends", () => {
  it("holds each record a write changed once, at its value when the batch is taken, then a commit line", () => {
    const world = buildWorld();
    const log = new ChangeLog(world.registry);
    log.take(); // the first batch notes every project's header
    const cards = world.demo.vouchers;
    const card = cards.stored(cards.records().next().value?.id as string);
    if (!card) throw new Error("no card");
    for (let points = 1; points <= 100; points++)
      cards.put({ ...card, loyalty_card: { points, balance: 0 } } as typeof card);
    const batch = lines(log.take().text());
    expect(batch).toEqual([
      {
        o: "put",
        p: "demo",
        c: "vouchers",
        k: card.id,
        r: { ...card, loyalty_card: { points: 100, balance: 0 } },
      },
      { o: "commit" },
    ]);
    expect(log.take().text()).toBe("");
  });

  it("writes a token with the project it belongs to, and a reset as one line, not the project's records", () => {
    const world = buildWorld();
    const log = new ChangeLog(world.registry);
    log.take();
    issueToken(world.registry, world.demo, world.demo.apiKeys.get("demo-app-id"), {
      grant_type: "client_credentials",
      scope: "api",
    });
    const token = world.demo.tokens.list()[0] as { accessToken: string };
    world.registry.reset("other");
    const batch = lines(log.take().text());
    expect(batch.map((line) => [line.o, line.p, line.c, line.k])).toEqual([
      ["put", "demo", "tokens", token.accessToken],
      ["reset", "other", undefined, undefined],
      ["head", "other", undefined, undefined],
      ["commit", undefined, undefined, undefined],
    ]);
  });

  it("hears nothing from the stores once stopped", () => {
    const world = buildWorld();
    const log = new ChangeLog(world.registry);
    log.take();
    log.stop();
    const card = world.demo.vouchers.records().next().value;
    if (!card) throw new Error("no card");
    world.demo.vouchers.put({ ...card, active: false });
    expect(log.take().text()).toBe("");
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProjectDocuments } from "../../src/domain/projects/load.js";
import { voucherSchema } from "../../src/domain/vouchers/voucher.js";
import { DEFAULT_FIXTURES_DIR, FixtureError } from "../../src/platform/fixtures.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The default `other` project with `count` more cards, written as `text` makes them (several chunks' worth). */
function otherWithCards(count: number, text: (cards: unknown[]) => string): { root: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-large-"));
  temps.push(root);
  const project = join(root, "other");
  cpSync(join(DEFAULT_FIXTURES_DIR, "other"), project, { recursive: true });
  const file = join(project, "vouchers.json");
  const cards = JSON.parse(readFileSync(file, "utf8")) as unknown[];
  const campaign = (cards[0] as { campaign_id: string }).campaign_id;
  for (let i = 0; i < count; i++)
    cards.push({
      id: `v_large${String(i).padStart(17, "0")}`,
      code: `LARGE-${String(i).padStart(8, "0")}`,
      campaign_id: campaign,
      type: "LOYALTY_CARD",
      // A string with escapes and a multi-byte character, so that a piece cut across chunks is put back whole.
      additional_info: i % 97 === 0 ? `note "${i}" \\ é 😀` : null,
      loyalty_card: { points: Math.floor(i / 1000), balance: Math.floor(i / 1000) },
      created_at: "2025-11-03T09:30:00.000Z",
    });
  writeFileSync(file, text(cards));
  return { root, file };
}

/** What reading the whole folder's text with JSON.parse and the schema gives. */
function expectedCards(file: string): unknown[] {
  return (JSON.parse(readFileSync(file, "utf8")) as unknown[]).map((card) => voucherSchema.parse(card));
}

describe("a large fixture file", () => {
  it.each([
    ["compact", (cards: unknown[]) => JSON.stringify(cards)],
    ["indented", (cards: unknown[]) => JSON.stringify(cards, null, 2)],
  ])("%s: read a chunk at a time, it gives the records the whole text gives", (_, text) => {
    const { root, file } = otherWithCards(12_000, text);
    const other = loadProjectDocuments(root).find((document) => document.project.id === "other");
    expect(other?.vouchers).toEqual(expectedCards(file));
    expect(other?.vouchers.length).toBeGreaterThan(12_000);
  });

  it("its records share the values they repeat: one date, one empty metadata, one zero balance", () => {
    const { root } = otherWithCards(3_000, (cards) => JSON.stringify(cards));
    const other = loadProjectDocuments(root).find((document) => document.project.id === "other");
    const cards = other?.vouchers.slice(-3_000) ?? [];
    const [first, ...rest] = cards;
    for (const card of rest) {
      expect(card.created_at).toBe(first?.created_at);
      expect(card.metadata).toBe(first?.metadata);
      expect(card.campaign_id).toBe(first?.campaign_id);
    }
    // Equal values only, each with the record before it: the next thousand cards, with a point each, share theirs.
    expect(cards[0]?.loyalty_card).toBe(cards[999]?.loyalty_card);
    expect(cards[1000]?.loyalty_card).not.toBe(cards[999]?.loyalty_card);
    expect(cards[1000]?.loyalty_card).toEqual({ points: 1, balance: 1 });
    expect(cards[1000]?.loyalty_card).toBe(cards[1999]?.loyalty_card);
  });

  it("broken past its first chunk, it is still named with its line and column", () => {
    const { root, file } = otherWithCards(12_000, (cards) => JSON.stringify(cards, null, 2));
    const lines = readFileSync(file, "utf8").split("\n");
    const broken = lines.length - 20;
    lines[broken] = `${lines[broken]} oops`;
    writeFileSync(file, lines.join("\n"));
    let error: unknown;
    try {
      loadProjectDocuments(root);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as FixtureError).file).toMatch(/other\/vouchers\.json$/);
    expect((error as FixtureError).message).toMatch(
      new RegExp(`line ${broken + 1} column \\d+: not valid JSON`),
    );
  });
});

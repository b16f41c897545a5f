import { type JsonAnswer, said } from "./calls.js";

/**
 * Where a customer stands after a join or an event of a play: each card's points, and the tiers it moved into
 * since the play last looked. None of the operations a play makes answers a card's points after an event, so it
 * reads them from the control API's customer story (`GET /__mock/projects/{id}/customers/{id}/story`, the
 * dashboard's), which holds each card's points and its tier in every tier structure. Without that (a server that
 * refuses the control API its token), a step's line goes without them, as before: the figures tell the story, the
 * operations are the play.
 */
export class Standing {
  /** Each card's tier in each structure, by card code and then structure name, as last read. */
  readonly #tiers = new Map<string, Map<string, string>>();

  /**
   * The words a step's line ends with (`DEMO-… 1100 points, now Silver in Demo Tiers`), read from a story, or ""
   * when none could be read. A card seen for the first time is taken as it stands: its tiers are only said once
   * they change.
   */
  describe(story: JsonAnswer | undefined, only?: string): string {
    const cards = story === undefined ? [] : cardsOf(story.body);
    const words = cards
      .filter((card) => only === undefined || card.code === only)
      .map((card) => {
        const moved = this.#moves(card);
        const points = `${card.points} point${card.points === 1 ? "" : "s"}`;
        const now = moved.length > 0 ? `, now ${listed(moved)}` : "";
        return only === undefined ? `${said(card.code)} ${points}${now}` : `${points}${now}`;
      });
    return words.join("; ");
  }

  /** The tiers a card is in now and was not when last read ("Silver in Demo Tiers"); none the first time. */
  #moves(card: Card): string[] {
    const before = this.#tiers.get(card.code);
    const now = new Map(card.tiers);
    this.#tiers.set(card.code, now);
    if (before === undefined) return [];
    return [...now]
      .filter(([structure, tier]) => before.get(structure) !== tier)
      .map(([structure, tier]) => `${said(tier)} in ${said(structure)}`);
  }
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

interface Card {
  code: string;
  points: number;
  /** Structure name, tier name: the structures where the card is in a tier. */
  tiers: [string, string][];
}

/** The story's cards, whatever else it holds; what is not as expected is left out rather than printed. */
function cardsOf(body: Record<string, unknown>): Card[] {
  const cards = Array.isArray(body.cards) ? (body.cards as unknown[]) : [];
  return cards.flatMap((value) => {
    const card = value as { code?: unknown; points?: unknown; progress?: unknown };
    if (typeof card.code !== "string" || typeof card.points !== "number") return [];
    const progress = Array.isArray(card.progress) ? (card.progress as unknown[]) : [];
    const tiers = progress.flatMap((entry) => {
      const { structure_name: structure, tier } = entry as { structure_name?: unknown; tier?: unknown };
      return typeof structure === "string" && typeof tier === "string"
        ? [[structure, tier] as [string, string]]
        : [];
    });
    return [{ code: card.code, points: card.points, tiers }];
  });
}

// @ts-check
import { h } from "../dom.js";
import { canonicalInteger, compareIntegers } from "../json.js";

/**
 * A range end is a number up to 2^53 and a bigint past it, as the answer held it (../json.js): a tier's
 * min_value and max_value reach 2^63-1. Ends are compared with < (which takes either form), never subtracted, and
 * a sum is made canonical so that one value has one form.
 * @typedef {number | bigint} Points
 * @typedef {{ id: string, name: string, qualification_rules: { type: string, min_value?: Points, max_value?: Points, segment?: { id: string } } }} Tier
 * @typedef {{ id: string, name: string, tiers: Tier[] }} Structure
 */

/** @param {Tier} tier */
const isPoints = (tier) => tier.qualification_rules.type === "POINTS";
/** @param {Tier} tier @returns {Points} */
const lowOf = (tier) => tier.qualification_rules.min_value ?? 0;
/**
 * The first value past a tier's range; an open-ended tier (no max_value) reaches past every other.
 * @param {Tier} tier
 * @returns {Points}
 */
const endOf = (tier) => {
  const max = tier.qualification_rules.max_value;
  if (max === undefined) return Number.POSITIVE_INFINITY;
  return canonicalInteger(typeof max === "bigint" ? max + 1n : max + 1);
};
/** The last value before `end`, for a gap's label. @param {Points} end */
const before = (end) => canonicalInteger(typeof end === "bigint" ? end - 1n : end - 1);

/**
 * Where a card with `points` stands in each structure: the POINTS tiers whose range holds it.
 * @param {number} points
 * @param {Structure[]} structures
 * @returns {string[]}
 */
export function standingOf(points, structures) {
  return structures.map((structure) => {
    const tiers = structure.tiers.filter((t) => isPoints(t) && lowOf(t) <= points && points < endOf(t));
    return `${structure.name}: ${tiers.length ? tiers.map((t) => t.name).join(" and ") : "no tier"} (${points} points)`;
  });
}

/** @param {Tier} tier */
export function rangeText(tier) {
  const { min_value: min = 0, max_value: max } = tier.qualification_rules;
  return max === undefined
    ? `${min.toLocaleString("en")} and above`
    : `${min.toLocaleString("en")}–${max.toLocaleString("en")}`;
}

/**
 * A structure's POINTS tiers as ranges on one axis. The axis is ordinal, one column between each pair of
 * neighbouring range ends, so a 0–999 tier and a tier from 500,000,000 are both readable; a column no tier covers
 * is a gap, and tiers sharing a column sit on separate lanes, marked as overlapping.
 * @param {Structure} structure
 */
export function tierAxis(structure) {
  const tiers = structure.tiers.filter(isPoints);
  const ends = [...new Set(tiers.flatMap((t) => [lowOf(t), endOf(t)]))].sort(compareIntegers);
  if (ends[0] !== 0) ends.unshift(0);
  const column = (/** @type {Points} */ value) => ends.indexOf(value) + 1;
  /** @type {number[]} the last column each lane is busy up to */
  const lanes = [];
  const placed = [...tiers]
    .sort((a, b) => compareIntegers(lowOf(a), lowOf(b)))
    .map((tier) => {
      const start = column(lowOf(tier));
      const end = column(endOf(tier));
      let lane = lanes.findIndex((busy) => busy <= start);
      if (lane === -1) lane = lanes.push(0) - 1;
      lanes[lane] = end;
      const overlaps = tiers.some((o) => o !== tier && lowOf(o) < endOf(tier) && lowOf(tier) < endOf(o));
      return { tier, start, end, lane, overlaps };
    });
  const columns = Math.max(1, ends.length - 1);
  const gaps = [];
  for (let c = 1; c <= columns; c++)
    if (!placed.some((p) => p.start <= c && c < p.end))
      gaps.push(
        h(
          "div",
          {
            className: "gap",
            style: `grid-column: ${c} / ${c + 1}; grid-row: 1 / span ${Math.max(1, lanes.length)}`,
            title: `gap: ${ends[c - 1]}–${before(ends[c] ?? 0)} points`,
          },
          h("span", null, `gap ${ends[c - 1]}–${before(ends[c] ?? 0)}`),
        ),
      );
  return h(
    "div",
    {
      className: "axis",
      role: "list",
      "aria-label": `${structure.name}: points tiers on one axis`,
      // It scrolls sideways when the tiers outgrow the panel: reachable by keyboard, as a scrolling region must be.
      tabIndex: 0,
      style: `grid-template-columns: repeat(${columns}, minmax(4.5em, 1fr))`,
    },
    ...gaps,
    ...placed.map(({ tier, start, end, lane, overlaps }) =>
      h(
        "div",
        {
          role: "listitem",
          className: overlaps ? "tier overlap" : "tier",
          "data-tier": tier.name,
          style: `grid-column: ${start} / ${end}; grid-row: ${lane + 1}`,
        },
        h("strong", null, tier.name),
        " ",
        rangeText(tier),
        overlaps ? " (overlaps)" : "",
      ),
    ),
  );
}

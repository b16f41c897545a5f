import { collection, type Path } from "../collection.js";
import { seeded } from "../record-store.js";
import { isInteger, type PointsRange, rangesOverlap } from "./qualification-rules.js";
import { TierStructureStore, tierStructureSchema } from "./tier-structure.js";

type StructureInput = (typeof tierStructureSchema)["_zod"]["output"];
/** A tier's rules as the document's check may meet them: after its own fields were refused, anything. */
type RulesAsGiven = { type: string; min_value?: unknown; max_value?: unknown };

/**
 * Within a structure, each tier names the structure that holds it (when it names one) and no two POINTS ranges
 * share a point.
 */
function checkTiers(structures: readonly StructureInput[], problem: (path: Path, message: string) => void) {
  structures.forEach((structure, i) => {
    const ranges: (PointsRange & { index: number })[] = [];
    structure.tiers.forEach((tier, j) => {
      const path: Path = ["tier_structures", i, "tiers", j];
      if (tier.tier_structure_id !== undefined && tier.tier_structure_id !== structure.id)
        problem([...path, "tier_structure_id"], `must be ${structure.id}, the structure that holds the tier`);
      const rules = tier.qualification_rules;
      // A range of values that are not integers has been refused by its own fields, and has no points to compare.
      const { type, min_value: min, max_value: max } = rules as RulesAsGiven;
      if (type !== "POINTS" || !isInteger(min) || (max !== undefined && !isInteger(max))) return;
      const range = { min, max: max ?? Number.POSITIVE_INFINITY, index: j };
      const clash = ranges.find((other) => rangesOverlap(other, range));
      if (clash) problem([...path, "qualification_rules"], `overlaps the range of tier ${clash.index}`);
      ranges.push(range);
    });
  });
}

/** A project's tier structures (Loyalty v2), each holding its tiers; a tier is stored with its structure's id. */
export const tierStructureCollection = collection({
  name: "tier_structures",
  schema: tierStructureSchema,
  resourceType: "vl_tier_structure",
  label: "tier structure",
  exactIntegers: true,
  key: "id",
  references: [{ field: "tiers[].qualification_rules.segment.id", to: "segments" }],
  check: checkTiers,
  store: (structures, { resourceType }) =>
    seeded(new TierStructureStore(resourceType), structures, (structure) => ({
      ...structure,
      tiers: structure.tiers.map((tier) => ({ ...tier, tier_structure_id: structure.id })),
    })),
  view: { component: "TierStructure", filters: ["name"] },
});

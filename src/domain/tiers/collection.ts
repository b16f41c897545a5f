import { collection, type Path } from "../collection.js";
import type { ProjectSettings } from "../projects/settings.js";
import { seeded } from "../record-store.js";
import { isInteger, type PointsRange, pointsRange, rangesOverlap } from "./qualification-rules.js";
import { TIER_LIMIT_DEFAULT, TierStructureStore, tierStructureSchema } from "./tier-structure.js";

type StructureInput = (typeof tierStructureSchema)["_zod"]["output"];
/** A tier's rules as the document's check may meet them: after its own fields were refused, anything. */
type RulesAsGiven = { type: string; min_value?: unknown; max_value?: unknown };

/**
 * Within a structure, each tier names the structure that holds it (when it names one), no two points ranges share
 * a point, and there are no more tiers than the project's `tier_limit` allows: a document holds no structure the
 * API would refuse to add to, and a state file always reads back under the settings it was saved with.
 */
function checkTiers(
  structures: readonly StructureInput[],
  problem: (path: Path, message: string) => void,
  settings: ProjectSettings,
) {
  const limit = settings.tier_limit ?? TIER_LIMIT_DEFAULT;
  structures.forEach((structure, i) => {
    if (structure.tiers.length > limit)
      problem(["tier_structures", i, "tiers"], `should NOT have more than ${limit} items`);
    const ranges: (PointsRange & { index: number })[] = [];
    structure.tiers.forEach((tier, j) => {
      const path: Path = ["tier_structures", i, "tiers", j];
      if (tier.tier_structure_id !== undefined && tier.tier_structure_id !== structure.id)
        problem([...path, "tier_structure_id"], `must be ${structure.id}, the structure that holds the tier`);
      // A range of values that are not integers has been refused by its own fields, and has no points to compare.
      const { min_value: min, max_value: max } = tier.qualification_rules as RulesAsGiven;
      if (!isInteger(min) || (max !== undefined && !isInteger(max))) return;
      const points = pointsRange(tier.qualification_rules);
      if (!points) return;
      const range = { ...points, index: j };
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

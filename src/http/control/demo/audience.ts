import type { Project } from "../../../domain/projects/project.js";

type Structure = ReturnType<Project["tierStructures"]["list"]>[number];

/**
 * The tier structures an audience sees: those the project's `audience_tier_structures` setting names, in the
 * store's order (an id it names that no structure has shows nothing), or every one when it names none. The data
 * view's panels read the tier structures themselves and show them all.
 */
export function audienceStructures(project: Project): Structure[] {
  const all = project.tierStructures.list();
  const named = project.settings.audience_tier_structures;
  if (named === undefined) return all;
  const shown = new Set(named);
  return all.filter((structure) => shown.has(structure.id));
}

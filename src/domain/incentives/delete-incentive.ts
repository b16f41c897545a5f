import { notFound, resourceInUse } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { Incentive } from "./incentive.js";

/**
 * Soft-deletes an incentive of the project (docs/reference/operations.md, "Deleting an incentive: the rules"). An incentive
 * already DELETED no longer exists for the API, so a second delete is the same 404 as an unknown id. One that an
 * earning rule still pays out is refused with the ids of those rules, whatever the rules' status: the real service
 * refuses while any rule references it, and a client can only free it by changing the rules.
 */
export function deleteIncentive(project: Project, id: string): Incentive {
  const incentive = project.incentives.get(id);
  if (incentive.status === "DELETED") throw notFound("vl_incentive", id);
  const rules = project.earningRules.referencing(id);
  if (rules.length > 0)
    throw resourceInUse(
      { id, type: "vl_incentive", label: "Incentive" },
      { type: "earning_rule", label: "earning rule", ids: rules },
    );
  return project.incentives.put({ ...incentive, status: "DELETED", updated_at: project.clock.iso() });
}

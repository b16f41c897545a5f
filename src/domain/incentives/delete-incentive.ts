import { notFound, resourceInUse } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { Incentive } from "./incentive.js";

/** How a deletion refuses: the record's name in the 404, and the status of "in use". */
interface Refusals {
  /** The 404 for an unknown or already deleted record, named as the caller named it. */
  notFound(): Error;
  /** The record as the in-use refusal names it. */
  resource: { id: string; type: string; label: string };
  /** 409 on the beta's path, as the spec's contract lists it; 400 on the GA's, as its description says. */
  inUseStatus: 400 | 409;
}

/**
 * Soft-deletes an incentive of the project: the one state change behind both paths that delete it (the beta's
 * incentive and the GA's benefit, docs/fidelity.md), each refusing in its own words. An incentive already DELETED
 * no longer exists for the API, so a second delete is the same 404 as an unknown id. One that an earning rule still
 * pays out is refused with the ids of those rules, whatever the rules' status: the real service refuses while any
 * rule references it, and a client can only free it by changing the rules.
 */
export function softDelete(project: Project, id: string, refusals: Refusals): Incentive {
  const incentive = project.incentives.find(id);
  if (incentive === undefined || incentive.status === "DELETED") throw refusals.notFound();
  const rules = project.earningRules.referencing(id);
  if (rules.length > 0)
    throw resourceInUse(
      refusals.resource,
      { type: "earning_rule", label: "earning rule", ids: rules },
      refusals.inUseStatus,
    );
  return project.incentives.put({ ...incentive, status: "DELETED", updated_at: project.clock.iso() });
}

/** DELETE /v2/loyalties/incentives/{id} (docs/reference/operations.md, "Deleting an incentive: the rules"). */
export function deleteIncentive(project: Project, id: string): Incentive {
  return softDelete(project, id, {
    notFound: () => notFound("vl_incentive", id),
    resource: { id, type: "vl_incentive", label: "Incentive" },
    inUseStatus: 409,
  });
}

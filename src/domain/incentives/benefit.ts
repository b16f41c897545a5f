import { notFound } from "../errors.js";
import type { Project } from "../projects/project.js";
import { softDelete } from "./delete-incentive.js";
import type { Incentive } from "./incentive.js";

/**
 * A benefit is the generally available name of an incentive (the vendor's loyalties-v2.json at 65c33a7a, Benefit):
 * `lben_<hex>` and `linc_<hex>` with the same hex name one record of the incentives store, so a deletion through
 * either path is one state change that both see (docs/fidelity.md, "Loyalty v2 as generally available").
 */

const BENEFIT = /^lben_([a-f0-9]+)$/;

/** The incentive a benefit id names (`lben_ab12` -> `linc_ab12`); none for an id that is no benefit's. */
export function incentiveIdOf(benefitId: string): string | undefined {
  const hex = BENEFIT.exec(benefitId)?.[1];
  return hex === undefined ? undefined : `linc_${hex}`;
}

/** The incentive a benefit id names, when the project has it (deleted or not): what the dashboard calls it. */
export function benefitNamed(project: Project, benefitId: string): Incentive | undefined {
  const id = incentiveIdOf(benefitId);
  return id === undefined ? undefined : project.incentives.find(id);
}

/** The benefit id of an incentive (`linc_ab12` -> `lben_ab12`). */
export function benefitIdOf(incentiveId: string): string {
  return `lben_${incentiveId.slice("linc_".length)}`;
}

/**
 * The GA file's BenefitStock. The beta's stock is a required integer, the quantity left, so every incentive is
 * LIMITED; the GA's UNLIMITED (no stock) has no beta counterpart to come from.
 */
function stockOf(incentive: Incentive) {
  return { type: "LIMITED" as const, limited: { quantity: incentive.stock } };
}

/**
 * An incentive as the GA file's Benefit writes it: its `lben_` id, the stock as an object, `object: "benefit"`,
 * and the one detail object its type has, unchanged (the GA's shapes are the beta's).
 */
export function benefitView(incentive: Incentive) {
  const { id, name, type, status, created_at, updated_at } = incentive;
  const detail = {
    ...(incentive.points && { points: incentive.points }),
    ...(incentive.points_proportional && { points_proportional: incentive.points_proportional }),
    ...(incentive.material && { material: incentive.material }),
    ...(incentive.digital && { digital: incentive.digital }),
  };
  return {
    id: benefitIdOf(id),
    name,
    type,
    status,
    stock: stockOf(incentive),
    ...detail,
    created_at,
    updated_at,
    object: "benefit" as const,
  };
}

/**
 * DELETE /v2/loyalties/benefits/{benefitId} (docs/reference/operations.md, "Deleting a benefit: the rules"): the
 * incentive's soft delete, refused as the GA file says: 404 naming the benefit, and 400 resource_in_use (the beta's
 * path keeps its 409) with the earning rules that use it.
 */
export function deleteBenefit(project: Project, benefitId: string) {
  const incentiveId = incentiveIdOf(benefitId);
  // An id that is no benefit's (the edge refuses it first) names no incentive, even one that is an incentive's id.
  if (incentiveId === undefined) throw notFound("benefit", benefitId);
  const deleted = softDelete(project, incentiveId, {
    notFound: () => notFound("benefit", benefitId),
    resource: { id: benefitId, type: "benefit", label: "Benefit" },
    inUseStatus: 400,
  });
  return benefitView(deleted);
}

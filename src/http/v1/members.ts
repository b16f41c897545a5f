import { z } from "zod";
import { customerInputSchema } from "../../domain/customers/customer-input.js";
import { assignCard } from "../../domain/members/assign-card.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { metadata } from "../../domain/shared/schema-parts.js";
import { voucherResponse } from "../../domain/vouchers/voucher-view.js";
import { requireAuth } from "../authenticate.js";
import { jsonBody } from "../body.js";
import { getAuth, getInput } from "../context.js";
import { route } from "../routes.js";
import { validate } from "../validate.js";
import type { Mount } from "./router.js";

/**
 * The service's own examples send `customer` as a bare string too: a `cust_` id, or else a source_id. It is read
 * as the object form it stands for.
 */
const customerRef = z.preprocess(
  (value) =>
    typeof value === "string" && value.length > 0
      ? value.startsWith("cust_")
        ? { id: value }
        : { source_id: value }
      : value,
  customerInputSchema,
);

export const addMemberSchema = z.object({
  params: z.object({ campaignId: z.string().min(1) }),
  body: z.object({
    customer: customerRef,
    voucher: z.string().min(1).nullable().optional(),
    source_id: z.string().nullable().optional(),
    metadata: metadata.nullable().optional(),
    channel: z.string().nullable().optional(),
  }),
});

/** POST /v1/loyalties/{campaignId}/members: assigns a loyalty card and answers with the whole voucher. */
export function mountMembers({ router, prefix }: Mount, registry: ProjectRegistry, bodyLimit: number): void {
  route(router, `${prefix}/loyalties/:campaignId/members`, {
    post: [
      requireAuth(registry, "addMember"),
      ...jsonBody(bodyLimit),
      validate(addMemberSchema),
      (_req, res) => {
        const { params, body } = getInput<z.output<typeof addMemberSchema>>(res);
        const { voucher } = assignCard(getAuth(res).project, params.campaignId, body);
        res.json(voucherResponse(voucher));
      },
    ],
  });
}

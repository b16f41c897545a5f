import type { Request } from "express";
import { type ApiError, apiError } from "../../domain/errors.js";
import { either } from "../errors/http-errors.js";
import { templateMatcher } from "../route.js";
import { LOYALTY_V2_BETA_OPERATIONS } from "./loyalty-v2-beta.js";
import { ANNOUNCED_OPERATIONS, LOYALTY_V2_GA_OPERATIONS } from "./loyalty-v2-ga.js";

/**
 * The real service's public operations, as facts: each path template, then the methods it answers with the name of
 * each operation, from the vendor's public API reference (voucherifyio/voucherify-openapi,
 * reference/readonly-sdks/js/OpenAPI.json at commit 65c33a7a). A request for one of them that we do not emulate
 * is 501 not_emulated rather than a 404 an app would read as "that record does not exist" (docs/reference/operations.md,
 * "Errors"). Emulated operations never get here: their routes come first. test/api/not-emulated.test.ts holds this
 * table to the vendor's list in ../shared/contract. The Loyalty v2 beta's operations and the generally available
 * version's are facts of their own (loyalty-v2-beta.ts, loyalty-v2-ga.ts), looked up the same way.
 */
const REAL_OPERATIONS = `
/client/v1/events POST track-custom-event-client-side
/client/v1/promotions/tiers GET list-promotion-tiers-client-side
/client/v1/qualifications POST check-eligibility-client-side
/client/v1/redemptions POST redeem-stacked-discounts-client-side
/client/v1/validations POST validate-stacked-discounts-client-side
/management/v1/projects GET list-projects, POST create-project
/management/v1/projects/{projectId} DELETE delete-project, GET get-project, PUT update-project
/management/v1/projects/{projectId}/branding GET list-brands, POST create-brand
/management/v1/projects/{projectId}/branding/{brandingId} DELETE delete-brand, GET get-brand, PUT update-brand
/management/v1/projects/{projectId}/custom-event-schemas GET list-custom-event-schemas, POST create-custom-event-schema
/management/v1/projects/{projectId}/custom-event-schemas/{customEventSchemaId} DELETE delete-custom-event-schema, GET get-custom-event-schema, PUT update-custom-event-schema
/management/v1/projects/{projectId}/metadata-schemas GET list-metadata-schemas-1, POST create-metadata-schema
/management/v1/projects/{projectId}/metadata-schemas/{metadataSchemaId} DELETE delete-metadata-schema, GET get-metadata-schema-1, PUT update-metadata-schema
/management/v1/projects/{projectId}/stacking-rules GET list-stacking-rules, POST create-stacking-rules
/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId} DELETE delete-stacking-rules, GET get-stacking-rules, PUT update-stacking-rules
/management/v1/projects/{projectId}/templates/campaigns GET management-list-campaign-templates
/management/v1/projects/{projectId}/templates/campaigns/{campaignTemplateId}/copy POST management-copy-campaign-template
/management/v1/projects/{projectId}/users GET list-users, POST assign-user
/management/v1/projects/{projectId}/users/{userId} DELETE unassign-user, GET get-user, PUT update-user
/management/v1/projects/{projectId}/webhooks GET list-webhooks, POST create-webhook
/management/v1/projects/{projectId}/webhooks/{webhookId} DELETE delete-webhook, GET get-webhook, PUT update-webhook
/management/v1/projects/users/invite POST invite-user
/v1/async-actions GET list-async-actions
/v1/async-actions/{asyncActionId} GET get-async-action
/v1/campaigns GET list-campaigns, POST create-campaign
/v1/campaigns/{campaignId} DELETE delete-campaign, GET get-campaign, PUT update-campaign
/v1/campaigns/{campaignId}/disable POST disable-campaign
/v1/campaigns/{campaignId}/enable POST enable-campaign
/v1/campaigns/{campaignId}/import POST import-vouchers-to-campaign
/v1/campaigns/{campaignId}/importCSV POST import-vouchers-to-campaign-using-csv
/v1/campaigns/{campaignId}/summary GET get-campaign-summary
/v1/campaigns/{campaignId}/transactions GET list-campaign-transactions
/v1/campaigns/{campaignId}/transactions/export POST export-campaign-transactions
/v1/campaigns/{campaignId}/vouchers POST add-vouchers-to-campaign
/v1/campaigns/{campaignId}/vouchers/{code} POST add-voucher-with-specific-code-to-campaign
/v1/categories GET list-categories, POST create-category
/v1/categories/{categoryId} DELETE delete-category, GET get-category, PUT update-category
/v1/customers GET list-customers, POST create-customer
/v1/customers/{customerId} DELETE delete-customer, GET get-customer, PUT update-customer
/v1/customers/{customerId}/activity GET list-customer-activity
/v1/customers/{customerId}/permanent-deletion POST customer-permanently-deletion
/v1/customers/{customerId}/redeemables GET list-customer-redeemables
/v1/customers/{customerId}/segments GET list-customer-segments
/v1/customers/bulk/async POST update-customers-in-bulk
/v1/customers/importCSV POST import-customers-using-csv
/v1/customers/metadata/async POST update-customers-metadata-in-bulk
/v1/events POST track-custom-event
/v1/exports GET list-exports, POST create-export
/v1/exports/{export_Id} GET download-export
/v1/exports/{exportId} DELETE delete-export, GET get-export
/v1/locations GET list-locations
/v1/locations/{locationId} GET get-location
/v1/loyalties GET list-loyalty-programs, POST create-loyalty-program
/v1/loyalties/{campaignId} DELETE delete-loyalty-program, GET get-loyalty-program, PUT update-loyalty-program
/v1/loyalties/{campaignId}/earning-rules GET list-earning-rules, POST create-earning-rule
/v1/loyalties/{campaignId}/earning-rules/{earningRuleId} DELETE delete-earning-rule, GET get-earning-rule, PUT update-earning-rule
/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/disable POST disable-earning-rule
/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/enable POST enable-earning-rule
/v1/loyalties/{campaignId}/members GET list-members, POST add-member
/v1/loyalties/{campaignId}/members/{memberId} GET get-member-1
/v1/loyalties/{campaignId}/members/{memberId}/activity GET list-member-activity-1
/v1/loyalties/{campaignId}/members/{memberId}/balance POST update-loyalty-card-balance-1
/v1/loyalties/{campaignId}/members/{memberId}/pending-points GET list-member-pending-points-1
/v1/loyalties/{campaignId}/members/{memberId}/points-expiration GET list-points-expiration
/v1/loyalties/{campaignId}/members/{memberId}/redemption POST redeem-reward-1
/v1/loyalties/{campaignId}/members/{memberId}/transactions GET list-loyalty-card-transactions-1
/v1/loyalties/{campaignId}/members/{memberId}/transactions/export POST export-loyalty-card-transactions-1
/v1/loyalties/{campaignId}/members/{memberId}/transfers POST transfer-points
/v1/loyalties/{campaignId}/pending-points GET list-campaign-pending-points
/v1/loyalties/{campaignId}/points-expiration/export POST create-points-expiration-export
/v1/loyalties/{campaignId}/reward-assignments GET list-reward-assignments-1
/v1/loyalties/{campaignId}/reward-assignments/{assignmentId} GET get-reward-assignment-1
/v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward GET get-reward-details
/v1/loyalties/{campaignId}/rewards GET list-reward-assignments-2, POST create-reward-assignment-1
/v1/loyalties/{campaignId}/rewards/{assignmentId} DELETE delete-reward-assignment-1, GET get-reward-assignment-2, PUT update-reward-assignment-1
/v1/loyalties/{campaignId}/tiers GET list-loyalty-tiers, POST create-in-bulk-loyalty-tiers
/v1/loyalties/{campaignId}/tiers/{loyaltyTierId} GET get-loyalty-tier
/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules GET list-loyalty-tier-earning-rules
/v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards GET list-loyalty-tier-rewards
/v1/loyalties/{campaignId}/transactions GET list-loyalty-campaign-transactions
/v1/loyalties/{campaignId}/transactions/export POST export-loyalty-campaign-transactions
/v1/loyalties/members/{memberId} GET get-member
/v1/loyalties/members/{memberId}/activity GET list-member-activity
/v1/loyalties/members/{memberId}/balance POST update-loyalty-card-balance
/v1/loyalties/members/{memberId}/pending-points GET list-member-pending-points
/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate POST activate-member-pending-points
/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/balance POST adjust-member-pending-points
/v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/cancel POST cancel-member-pending-points
/v1/loyalties/members/{memberId}/redemption POST redeem-reward
/v1/loyalties/members/{memberId}/rewards GET list-member-rewards
/v1/loyalties/members/{memberId}/tiers GET list-member-loyalty-tier
/v1/loyalties/members/{memberId}/transactions GET list-loyalty-card-transactions
/v1/loyalties/members/{memberId}/transactions/export POST export-loyalty-card-transactions
/v1/metadata-schemas GET list-metadata-schemas
/v1/metadata-schemas/{resource} GET get-metadata-schema
/v1/oauth/introspect POST introspect-oauth-token
/v1/oauth/token POST generate-oauth-token
/v1/oauth/token/revoke POST revoke-oauth-token
/v1/orders GET list-orders, POST create-order
/v1/orders/{orderId} GET get-order, PUT update-order
/v1/orders/export POST create-order-export
/v1/orders/import POST import-orders
/v1/product-collections GET list-product-collections, POST create-product-collection
/v1/product-collections/{productCollectionId} DELETE delete-product-collection, GET get-product-collection
/v1/product-collections/{productCollectionId}/products GET list-products-in-collection
/v1/products GET list-products, POST create-product
/v1/products/{productId} DELETE delete-product, GET get-product, PUT update-product
/v1/products/{productId}/skus GET list-SKUs-in-product, POST create-sku
/v1/products/{productId}/skus/{skuId} DELETE delete-sku, PUT update-sku
/v1/products/bulk/async POST update-products-in-bulk
/v1/products/importCSV POST import-products-using-csv
/v1/products/metadata/async POST update-products-metadata-in-bulk
/v1/promotions/{campaignId}/stacks GET list-promotion-stacks-in-campaign, POST create-promotion-stack
/v1/promotions/{campaignId}/stacks/{stackId} DELETE delete-promotion-stack, GET get-promotion-stack, PUT update-promotion-stack
/v1/promotions/{campaignId}/tiers GET list-promotion-tiers-from-campaign, POST add-promotion-tier-to-campaign
/v1/promotions/stacks GET list-all-promotion-stacks
/v1/promotions/tiers GET list-promotion-tiers
/v1/promotions/tiers/{promotionTierId} DELETE delete-promotion-tier, GET get-promotion-tier, PUT update-promotion-tier
/v1/promotions/tiers/{promotionTierId}/disable POST disable-promotion-tier
/v1/promotions/tiers/{promotionTierId}/enable POST enable-promotion-tier
/v1/publications GET list-publications, POST create-publication
/v1/publications/create GET create-publication-1
/v1/qualifications POST check-eligibility
/v1/redemptions GET list-redemptions, POST redeem-stacked-discounts
/v1/redemptions/{parentRedemptionId}/rollbacks POST rollback-stacked-redemptions
/v1/redemptions/{redemptionId} GET get-redemption
/v1/redemptions/{redemptionId}/rollback POST rollback-redemption
/v1/referrals/{campaignId}/members/{memberId}/holders GET referrals-code-holders, POST referrals-add-holders-1
/v1/referrals/{campaignId}/members/{memberId}/holders/{holderId} DELETE referrals-remove-holder-1
/v1/referrals/members/{memberId}/holders GET referrals-code-holders-1, POST referrals-add-holders
/v1/referrals/members/{memberId}/holders/{holderId} DELETE referrals-remove-holder
/v1/rewards GET list-rewards, POST create-reward
/v1/rewards/{rewardId} DELETE delete-reward, GET get-reward, PUT update-reward
/v1/rewards/{rewardId}/assignments GET list-reward-assignments, POST create-reward-assignment
/v1/rewards/{rewardId}/assignments/{assignmentId} DELETE delete-reward-assignment, GET get-reward-assignment, PUT update-reward-assignment
/v1/segments POST create-segment
/v1/segments/{segmentId} DELETE delete-segment, GET get-segment
/v1/skus/{skuId} GET get-sku
/v1/skus/importCSV POST import-SKUs-using-csv
/v1/templates/campaigns GET list-campaign-templates, POST create-campaign-template
/v1/templates/campaigns/{campaignTemplateId} DELETE delete-campaign-template, GET get-campaign-template, PUT update-campaign-template
/v1/templates/campaigns/{campaignTemplateId}/campaign-setup POST create-campaign-from-template
/v1/templates/campaigns/{campaignTemplateId}/tier-setup POST add-tier-from-template
/v1/trash-bin GET list-bin-entries
/v1/trash-bin/{binEntryId} DELETE delete-bin-entry
/v1/validation-rules GET list-validation-rules, POST create-validation-rules
/v1/validation-rules-assignments GET list-validation-rules-assignments
/v1/validation-rules/{validationRuleId} DELETE delete-validation-rules, GET get-validation-rule, PUT update-validation-rule
/v1/validation-rules/{validationRuleId}/assignments GET list-validation-rule-assignments, POST create-validation-rule-assignment
/v1/validation-rules/{validationRuleId}/assignments/{assignmentId} DELETE delete-validation-rule-assignment
/v1/validations POST validate-stacked-discounts
/v1/vouchers GET list-vouchers, POST generate-random-code
/v1/vouchers/{code} DELETE delete-voucher, GET get-voucher, POST create-voucher, PUT update-voucher
/v1/vouchers/{code}/balance POST update-voucher-balance
/v1/vouchers/{code}/disable POST disable-voucher
/v1/vouchers/{code}/enable POST enable-voucher
/v1/vouchers/{code}/redemption GET get-voucher-redemptions
/v1/vouchers/{code}/sessions/{sessionKey} DELETE release-validation-session
/v1/vouchers/{code}/transactions GET list-voucher-transactions
/v1/vouchers/{code}/transactions/export POST export-voucher-transactions
/v1/vouchers/bulk/async POST update-vouchers-in-bulk
/v1/vouchers/import POST import-vouchers
/v1/vouchers/importCSV POST import-vouchers-using-csv
/v1/vouchers/metadata/async POST update-vouchers-metadata-in-bulk
`;

/**
 * Addresses the service hands out in its own answers without a reference entry: a voucher's `publish.url` and
 * `redemption.url` (the contract's voucher examples: `/v1/vouchers/{code}/publications?page=1&limit=10`). Our
 * cards carry them too, so following one must not read as "no such card".
 */
const LINKED_OPERATIONS = `
/v1/vouchers/{code}/publications GET a voucher's publish.url
/v1/vouchers/{code}/redemptions GET a voucher's redemption.url
`;

export interface RealOperation {
  method: string;
  path: string;
  name: string;
}

function parse(table: string): RealOperation[] {
  return table
    .trim()
    .split("\n")
    .flatMap((line) => {
      const [path = "", ...rest] = line.split(" ");
      return rest
        .join(" ")
        .split(", ")
        .map((entry) => {
          const [method = "", ...name] = entry.split(" ");
          return { method, path, name: name.join(" ") };
        });
    });
}

/** The Loyalty v2 beta's operations (loyalty-v2-beta.ts), the two we emulate among them. */
export const BETA_OPERATIONS: readonly RealOperation[] = parse(LOYALTY_V2_BETA_OPERATIONS);

/** The generally available Loyalty v2's operations (loyalty-v2-ga.ts), the two we emulate among them. */
export const GA_OPERATIONS: readonly RealOperation[] = parse(LOYALTY_V2_GA_OPERATIONS);

/**
 * The references in the order they are asked: the v1 reference and the beta first, as before the generally
 * available version was served, so a request they name is answered exactly as it was (the beta's name for a path
 * both v2 versions document); then the GA file and what the vendor announced, for what only they name. Each
 * answers the most specific of its templates (several only where it has look-alikes).
 */
const MATCHERS = [
  templateMatcher([...parse(REAL_OPERATIONS), ...parse(LINKED_OPERATIONS), ...BETA_OPERATIONS]),
  templateMatcher([...GA_OPERATIONS, ...parse(ANNOUNCED_OPERATIONS)]),
];

/** Every real operation this request names (several only where the reference has look-alikes), or none. */
export function realOperationsFor(req: Pick<Request, "method" | "path">): RealOperation[] {
  for (const matching of MATCHERS) {
    const found = matching(req.method, req.path);
    if (found.length > 0) return found;
  }
  return [];
}

/** An operation of the real service that this stand-in does not emulate; details name it (or its look-alikes). */
export function notEmulated(operations: readonly RealOperation[]): ApiError {
  const named = operations.map((op) => `${op.method} ${op.path} (${op.name})`);
  return apiError("not_emulated", { details: `${either(named)} is not emulated by loyalty-mock` });
}

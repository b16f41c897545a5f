import type { OperationName } from "../../http/operations/table.js";
import type { Step } from "./scenario.js";

/** A step as written under its operation, which the scenario adds. */
type OperationStep = Omit<Step, "operation">;

/**
 * The one scripted scenario of `loyalty-mock verify`: every operation of the table, each with a success and a documented
 * error, in an order that works on a fresh sandbox project and again on the next run. The incentive deleted is the
 * first of the config's list still there. 16 steps, a few more calls when earlier runs deleted incentives: well
 * under the 40 calls a run may make.
 */

/** Ids no project holds, in each resource's own shape. */
const UNKNOWN = {
  location: "loc_verify_unknown_location",
  campaign: "camp_verify_unknown_campaign",
  tierStructure: "lts_00000000000000000",
  event: "verify_unknown_event",
};

const members = (campaign: string) => `/v1/loyalties/${encodeURIComponent(campaign)}/members`;
const tiers = (structure: string) => `/v2/loyalties/tier-structures/${encodeURIComponent(structure)}/tiers`;
const tierBody = (name: string, min: number, max: number) => ({
  name,
  qualification_rules: { type: "POINTS", min_value: min, max_value: max },
  metadata: { source: "loyalty-mock verify" },
});

/**
 * The steps of each operation of the table, keyed by its name: a row without its steps fails the type checker, and
 * test/api/operation-table.test.ts asks each for at least one. Run in the order written.
 */
const STEPS: { readonly [N in OperationName]: readonly OperationStep[] } = {
  generateToken: [
    {
      name: "token-api",
      writes: false,
      request: () => ({
        method: "POST",
        path: "/v1/oauth/token",
        credentials: "key",
        form: { grant_type: "client_credentials", scope: "api" },
      }),
      echo: { scope: "scope" },
      values: ["token_type", "expires_in"],
    },
    {
      name: "token-comma-scope",
      writes: false,
      request: () => ({
        method: "POST",
        path: "/v1/oauth/token",
        credentials: "key",
        form: { grant_type: "client_credentials", scope: "api,loyalties" },
      }),
    },
  ],
  getLocation: [
    {
      name: "location",
      writes: false,
      request: (o) => ({ method: "GET", path: `/v1/locations/${o.location_id}`, credentials: "key" }),
      values: ["id", "object"],
    },
    {
      name: "location-unknown",
      writes: false,
      request: () => ({ method: "GET", path: `/v1/locations/${UNKNOWN.location}`, credentials: "key" }),
    },
    {
      name: "location-no-credentials",
      writes: false,
      request: (o) => ({ method: "GET", path: `/v1/locations/${o.location_id}`, credentials: "none" }),
    },
  ],
  addMember: [
    {
      name: "member-new-customer",
      writes: true,
      request: (o, i) => ({
        method: "POST",
        path: members(o.loyalty_campaign_id),
        credentials: "key",
        json: { customer: { source_id: i.memberSourceId } },
      }),
      values: ["object", "type", "campaign_id", "is_referral_code", "publish.object", "publish.count"],
    },
    {
      name: "member-same-customer",
      writes: true,
      request: (o, i) => ({
        method: "POST",
        path: members(o.loyalty_campaign_id),
        credentials: "key",
        json: { customer: { source_id: i.memberSourceId } },
      }),
    },
    {
      name: "member-unknown-campaign",
      writes: false,
      request: (_o, i) => ({
        method: "POST",
        path: members(UNKNOWN.campaign),
        credentials: "key",
        json: { customer: { source_id: i.memberSourceId } },
      }),
    },
  ],
  trackEvent: [
    {
      name: "event",
      writes: true,
      request: (o, i) => ({
        method: "POST",
        path: "/v1/events",
        credentials: "key",
        json: {
          event: o.custom_event.name,
          customer: { source_id: i.eventSourceId },
          metadata: o.custom_event.metadata,
        },
      }),
      echo: { type: "event", metadata: "metadata", "customer.source_id": "customer.source_id" },
      values: ["object", "customer.object", "referral", "loyalty"],
    },
    {
      name: "event-unknown-name",
      writes: false,
      request: (_o, i) => ({
        method: "POST",
        path: "/v1/events",
        credentials: "key",
        json: { event: UNKNOWN.event, customer: { source_id: i.eventSourceId } },
      }),
    },
  ],
  createTier: [
    {
      name: "tier",
      writes: true,
      request: (o, i) => ({
        method: "POST",
        path: tiers(o.tier_structure_id),
        credentials: "key+bearer",
        json: tierBody(i.tierName, i.tierPoints, i.tierPoints),
      }),
      echo: { name: "name", qualification_rules: "qualification_rules", metadata: "metadata" },
      values: ["object", "tier_structure_id", "downgrade", "updated_at"],
    },
    {
      name: "tier-max-below-min",
      writes: false,
      request: (o, i) => ({
        method: "POST",
        path: tiers(o.tier_structure_id),
        credentials: "key+bearer",
        json: tierBody(i.tierName, i.tierPoints, i.tierPoints - 1),
      }),
    },
    {
      name: "tier-unknown-structure",
      writes: false,
      request: (_o, i) => ({
        method: "POST",
        path: tiers(UNKNOWN.tierStructure),
        credentials: "key+bearer",
        json: tierBody(i.tierName, i.tierPoints, i.tierPoints),
      }),
    },
    {
      // To a structure that does not exist: should the service take the key pair alone, nothing is written.
      name: "tier-without-bearer",
      writes: false,
      request: (_o, i) => ({
        method: "POST",
        path: tiers(UNKNOWN.tierStructure),
        credentials: "key",
        json: tierBody(i.tierName, i.tierPoints, i.tierPoints),
      }),
    },
  ],
  deleteIncentive: [
    {
      name: "incentive-delete",
      writes: true,
      request: (_o, _i, incentiveId) => ({
        method: "DELETE",
        path: `/v2/loyalties/incentives/${incentiveId}`,
        credentials: "key+bearer",
      }),
      values: ["id", "object", "status"],
      triesIncentives: true,
    },
    {
      name: "incentive-malformed-id",
      writes: false,
      request: () => ({
        method: "DELETE",
        path: "/v2/loyalties/incentives/not-an-incentive",
        credentials: "key+bearer",
      }),
    },
  ],
};

export const SCENARIO: readonly Step[] = Object.entries(STEPS).flatMap(([operation, steps]) =>
  steps.map((step) => ({ ...step, operation: operation as OperationName })),
);

import type { Step } from "./scenario.js";

/**
 * The one scripted scenario of `loyalty-mock verify`: all six operations, each with a success and a documented
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

export const SCENARIO: readonly Step[] = [
  {
    name: "token-api",
    operation: "generateToken",
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
    operation: "generateToken",
    writes: false,
    request: () => ({
      method: "POST",
      path: "/v1/oauth/token",
      credentials: "key",
      form: { grant_type: "client_credentials", scope: "api,loyalties" },
    }),
  },
  {
    name: "location",
    operation: "getLocation",
    writes: false,
    request: (o) => ({ method: "GET", path: `/v1/locations/${o.location_id}`, credentials: "key" }),
    values: ["id", "object"],
  },
  {
    name: "location-unknown",
    operation: "getLocation",
    writes: false,
    request: () => ({ method: "GET", path: `/v1/locations/${UNKNOWN.location}`, credentials: "key" }),
  },
  {
    name: "location-no-credentials",
    operation: "getLocation",
    writes: false,
    request: (o) => ({ method: "GET", path: `/v1/locations/${o.location_id}`, credentials: "none" }),
  },
  {
    name: "member-new-customer",
    operation: "addMember",
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
    operation: "addMember",
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
    operation: "addMember",
    writes: false,
    request: (_o, i) => ({
      method: "POST",
      path: members(UNKNOWN.campaign),
      credentials: "key",
      json: { customer: { source_id: i.memberSourceId } },
    }),
  },
  {
    name: "event",
    operation: "trackEvent",
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
    operation: "trackEvent",
    writes: false,
    request: (_o, i) => ({
      method: "POST",
      path: "/v1/events",
      credentials: "key",
      json: { event: UNKNOWN.event, customer: { source_id: i.eventSourceId } },
    }),
  },
  {
    name: "tier",
    operation: "createTier",
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
    operation: "createTier",
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
    operation: "createTier",
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
    operation: "createTier",
    writes: false,
    request: (_o, i) => ({
      method: "POST",
      path: tiers(UNKNOWN.tierStructure),
      credentials: "key",
      json: tierBody(i.tierName, i.tierPoints, i.tierPoints),
    }),
  },
  {
    name: "incentive-delete",
    operation: "deleteIncentive",
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
    operation: "deleteIncentive",
    writes: false,
    request: () => ({
      method: "DELETE",
      path: "/v2/loyalties/incentives/not-an-incentive",
      credentials: "key+bearer",
    }),
  },
];

// @ts-check
/** The six operations as the journal filter and the fault rules name them: method and path pattern. */
export const OPERATIONS = [
  { name: "OAuth token", method: "POST", path: "/v1/oauth/token" },
  { name: "Assign a loyalty card", method: "POST", path: "/v1/loyalties/{campaignId}/members" },
  { name: "Get a location", method: "GET", path: "/v1/locations/{locationId}" },
  { name: "Custom event", method: "POST", path: "/v1/events" },
  { name: "Create a tier", method: "POST", path: "/v2/loyalties/tier-structures/{id}/tiers" },
  { name: "Delete an incentive", method: "DELETE", path: "/v2/loyalties/incentives/{id}" },
];

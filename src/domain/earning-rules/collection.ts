import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { EarningRuleStore, earningRuleSchema } from "./earning-rule.js";

/** A project's earning rules: which custom event pays which incentive in which campaign. */
export const earningRuleCollection = collection({
  name: "earning_rules",
  schema: earningRuleSchema,
  resourceType: "earning_rule",
  label: "earning rule",
  key: "id",
  references: [
    { field: "campaign_id", to: "campaigns" },
    { field: "incentive_id", to: "incentives" },
    { field: "event", to: "event_schemas", by: "name" },
  ],
  store: (rules, { resourceType }) => seeded(new EarningRuleStore(resourceType), rules),
  view: { component: "EarningRule", filters: ["campaign_id", "event", "incentive_id"] },
});

import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { IncentiveStore, incentiveSchema } from "./incentive.js";

/** A project's incentives (Loyalty v2): what an earning rule pays out. */
export const incentiveCollection = collection({
  name: "incentives",
  schema: incentiveSchema,
  resourceType: "vl_incentive",
  label: "incentive",
  exactIntegers: true,
  key: "id",
  store: (incentives, { resourceType }) => seeded(new IncentiveStore(resourceType), incentives),
  view: { component: "Incentive", filters: ["type", "status"] },
});

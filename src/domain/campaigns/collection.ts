import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { CampaignStore, campaignSchema } from "./campaign.js";

/** A project's campaigns (loyalty programs among them), by id and by name. */
export const campaignCollection = collection({
  name: "campaigns",
  schema: campaignSchema,
  resourceType: "campaign",
  label: "campaign",
  key: "id",
  unique: ["name"],
  store: (campaigns, { resourceType }) => seeded(new CampaignStore(resourceType), campaigns),
  view: {
    component: "Campaign",
    // The stored campaign is the object before the transform that settles join_once.
    schema: campaignSchema.in,
    filters: ["name", "campaign_type", "type", "active"],
    alternateKey: (store, name) => store.findByName(name),
  },
});

import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { PublicationStore, publicationSchema } from "./publication.js";

/** A project's publications: which card went to which customer, by id and by source id. */
export const publicationCollection = collection({
  name: "publications",
  schema: publicationSchema,
  resourceType: "publication",
  label: "publication",
  key: "id",
  unique: ["source_id"],
  references: [
    { field: "customer_id", to: "customers" },
    { field: "campaign_id", to: "campaigns" },
    { field: "voucher_id", to: "vouchers" },
  ],
  store: (publications, { resourceType }) => seeded(new PublicationStore(resourceType), publications),
  keySets: (store) => ({ id: store, source_id: store.keysOf(store.findBySourceId) }),
  view: {
    component: "Publication",
    filters: ["customer_id", "campaign_id", "voucher_id", "channel", "source_id"],
  },
});

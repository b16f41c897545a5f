import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { CustomerStore, customerSchema } from "./customer.js";

/** A project's customers, by id and by source id. */
export const customerCollection = collection({
  name: "customers",
  schema: customerSchema,
  resourceType: "customer",
  label: "customer",
  key: "id",
  unique: ["source_id"],
  store: (customers, { resourceType }) => seeded(new CustomerStore(resourceType), customers),
  keySets: (store) => ({ id: store, source_id: store.keysOf(store.findBySourceId) }),
  view: {
    component: "Customer",
    filters: ["source_id", "name", "email", "phone"],
    // A source id is unique: its index answers `?source_id=` at any number of customers (a play asks it for each
    // of its people before it starts).
    narrow: (store, filters) => {
      const sourceId = filters.get("source_id");
      if (sourceId === undefined || sourceId === "null") return undefined;
      const customer = store.findBySourceId(sourceId);
      return customer ? [customer] : [];
    },
  },
});

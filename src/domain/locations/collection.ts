import { collection } from "../collection.js";
import { seeded } from "../record-store.js";
import { LocationStore, locationSchema } from "./location.js";

/** A project's locations (GET /v1/locations/{locationId}). */
export const locationCollection = collection({
  name: "locations",
  schema: locationSchema,
  resourceType: "location",
  label: "location",
  key: "id",
  store: (locations, { resourceType }) => seeded(new LocationStore(resourceType), locations),
  view: { component: "Location", filters: ["name"] },
});

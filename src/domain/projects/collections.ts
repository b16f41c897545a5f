/** The collections of a project document: its keys besides `project`, and the files of a project folder. */
export const COLLECTIONS = [
  "api_keys",
  "tokens",
  "locations",
  "campaigns",
  "customers",
  "vouchers",
  "publications",
  "segments",
  "tier_structures",
  "incentives",
  "earning_rules",
  "event_schemas",
  "events",
  "webhooks",
] as const;

export type CollectionName = (typeof COLLECTIONS)[number];

/** The collections whose records carry an `id`. */
export const ID_COLLECTIONS = COLLECTIONS.filter(
  (name): name is Exclude<CollectionName, "api_keys" | "tokens"> => name !== "api_keys" && name !== "tokens",
);

import { apiKeyCollection, tokenCollection } from "../auth/collections.js";
import { campaignCollection } from "../campaigns/collection.js";
import type { AnyCollection } from "../collection.js";
import { customerCollection } from "../customers/collection.js";
import { earningRuleCollection } from "../earning-rules/collection.js";
import { eventCollection, eventSchemaCollection } from "../events/collections.js";
import { incentiveCollection } from "../incentives/collection.js";
import { locationCollection } from "../locations/collection.js";
import { publicationCollection } from "../publications/collection.js";
import { segmentCollection } from "../segments/collection.js";
import { tierStructureCollection } from "../tiers/collection.js";
import { voucherCollection } from "../vouchers/collection.js";
import { webhookCollection } from "../webhooks/collection.js";

/**
 * Every stored collection of a project, each declared in its resource's folder (domain/collection.ts), in the
 * order a project's state is written (its document, an export, a snapshot) and its stores are built (a store
 * may read those listed before it). The one registration: the document's schema, the stores, the change watch,
 * the reference checks, the state file's replay and the control API's views are all derived from this list.
 */
export const COLLECTIONS = [
  apiKeyCollection,
  tokenCollection,
  locationCollection,
  campaignCollection,
  voucherCollection,
  customerCollection,
  publicationCollection,
  segmentCollection,
  tierStructureCollection,
  incentiveCollection,
  earningRuleCollection,
  eventSchemaCollection,
  eventCollection,
  webhookCollection,
] as const satisfies readonly AnyCollection[];

type Listed = (typeof COLLECTIONS)[number];

export type CollectionName = Listed["name"];

/** The collection of this name, with its own types. */
export type CollectionNamed<N extends CollectionName> = Extract<Listed, { name: N }>;

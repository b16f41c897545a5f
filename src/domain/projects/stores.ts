import { type ApiKey, ApiKeyStore, toApiKey } from "../auth/api-key.js";
import { type TokenRecord, TokenStore, tokenFromInput } from "../auth/token-store.js";
import { CampaignStore } from "../campaigns/campaign.js";
import { CustomerStore } from "../customers/customer.js";
import { EarningRuleStore } from "../earning-rules/earning-rule.js";
import { EventStore } from "../events/event.js";
import { EventSchemaStore } from "../events/event-schema.js";
import { IncentiveStore } from "../incentives/incentive.js";
import { LocationStore } from "../locations/location.js";
import { PublicationStore } from "../publications/publication.js";
import type { RecordWatcher } from "../record-store.js";
import { SegmentStore } from "../segments/segment.js";
import { TierStructureStore } from "../tiers/tier-structure.js";
import { publishCount, publishSummary } from "../vouchers/voucher.js";
import { VoucherStore } from "../vouchers/voucher-store.js";
import { WebhookStore } from "../webhooks/endpoint.js";
import type { CollectionName } from "./collections.js";
import type { ProjectDocument } from "./project-document.js";

/** A project's stores, one for each collection of its document. */
export interface ProjectStores {
  api_keys: ApiKeyStore;
  tokens: TokenStore;
  locations: LocationStore;
  campaigns: CampaignStore;
  vouchers: VoucherStore;
  customers: CustomerStore;
  publications: PublicationStore;
  segments: SegmentStore;
  tier_structures: TierStructureStore;
  incentives: IncentiveStore;
  earning_rules: EarningRuleStore;
  event_schemas: EventSchemaStore;
  events: EventStore;
  webhooks: WebhookStore;
}

/** One collection of a project in document form, keyed as its store reports changes (see Project.watch). */
export interface CollectionView {
  get(key: string): unknown;
  entries(): Iterable<[string, unknown]>;
}

/** How a collection's store is built from a document, and how its records read back in document form. */
interface StoreEntry<K extends CollectionName> {
  build(document: ProjectDocument, stores: Readonly<Partial<ProjectStores>>): ProjectStores[K];
  view(store: ProjectStores[K]): CollectionView;
}

/** What a view reads of a record store; structural, so every store's record type fits. */
interface StoredRecords<T extends { id: string }> {
  stored(id: string): T | undefined;
  storedValues(): IterableIterator<T>;
}

function recordView<T extends { id: string }>(
  store: StoredRecords<T>,
  toDocument: (record: T) => unknown = (record) => record,
): CollectionView {
  return {
    get: (key: string) => {
      const record = store.stored(key);
      return record && toDocument(record);
    },
    *entries(): Iterable<[string, unknown]> {
      for (const record of store.storedValues()) yield [record.id, toDocument(record)];
    },
  };
}

function keyDocument({ id: _id, ...key }: ApiKey): ProjectDocument["api_keys"][number] {
  return key;
}

function tokenDocument(token: TokenRecord): ProjectDocument["tokens"][number] {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    access_token: token.accessToken,
    app_id: token.appId,
    client_id: token.clientId,
    scope: [...token.scope],
    permissions: [...token.permissions],
    ip_allowlist: [...token.ipAllowlist],
    issued_at: iso(token.issuedAtMs),
    expires_at: iso(token.expiresAtMs),
    revoke_at: token.revokeAtMs === null ? null : iso(token.revokeAtMs),
  };
}

/**
 * A card's publication count comes from the publications that name it, when the fixture lists any; a card with
 * a holder and none listed counts one (see publishCount). Only cards whose count differs get a `publish`.
 */
function countPublications(document: ProjectDocument) {
  const published = new Map<string, number>();
  for (const publication of document.publications)
    published.set(publication.voucher_id, (published.get(publication.voucher_id) ?? 0) + 1);
  return document.vouchers.map((voucher) => {
    const count = published.get(voucher.id);
    if (count === undefined || voucher.publish || count === publishCount(voucher)) return voucher;
    return { ...voucher, publish: publishSummary(voucher.code, count) };
  });
}

/**
 * Every collection's store, in one table, in the order a project's state is written (an export, a snapshot):
 * the project builds its stores from it, and its change watch, the export order and the collection views
 * derive from it, so a new collection is one row here (and its schema in the project document).
 */
const STORES: { [K in CollectionName]: StoreEntry<K> } = {
  api_keys: {
    build: (document) => new ApiKeyStore(document.api_keys.map(toApiKey)),
    view: (store) => recordView(store, keyDocument),
  },
  tokens: {
    build: (document) => new TokenStore(document.tokens.map(tokenFromInput)),
    view: (store) => ({
      get: (key) => {
        const token = store.find(key);
        return token && tokenDocument(token);
      },
      entries: () => store.list().map((token) => [token.accessToken, tokenDocument(token)]),
    }),
  },
  locations: {
    build: (document) => new LocationStore(document.locations),
    view: (store) => recordView(store),
  },
  campaigns: {
    build: (document) => new CampaignStore(document.campaigns),
    view: (store) => recordView(store),
  },
  // A card reads its campaign when it is read, so the campaigns' store only has to exist by then.
  vouchers: {
    build: (document, stores) =>
      new VoucherStore(countPublications(document), (id) => (stores.campaigns as CampaignStore).get(id)),
    view: (store) => recordView(store),
  },
  customers: {
    build: (document) => new CustomerStore(document.customers),
    view: (store) => recordView(store),
  },
  publications: {
    build: (document) => new PublicationStore(document.publications),
    view: (store) => recordView(store),
  },
  segments: { build: (document) => new SegmentStore(document.segments), view: (store) => recordView(store) },
  tier_structures: {
    build: (document) =>
      new TierStructureStore(
        document.tier_structures.map((structure) => ({
          ...structure,
          tiers: structure.tiers.map((tier) => ({ ...tier, tier_structure_id: structure.id })),
        })),
      ),
    view: (store) => recordView(store),
  },
  incentives: {
    build: (document) => new IncentiveStore(document.incentives),
    view: (store) => recordView(store),
  },
  earning_rules: {
    build: (document) => new EarningRuleStore(document.earning_rules),
    view: (store) => recordView(store),
  },
  event_schemas: {
    build: (document) => new EventSchemaStore(document.event_schemas),
    view: (store) => recordView(store),
  },
  events: { build: (document) => new EventStore(document.events), view: (store) => recordView(store) },
  webhooks: { build: (document) => new WebhookStore(document.webhooks), view: (store) => recordView(store) },
};

/** The collections in the order a project's state is written: the table's. */
export const EXPORT_ORDER = Object.keys(STORES) as readonly CollectionName[];

/** A project's stores, built from its (frozen) document: the stores share its records. */
export function buildStores(document: ProjectDocument): ProjectStores {
  const stores: Partial<ProjectStores> = {};
  const add = <K extends CollectionName>(name: K) => {
    stores[name] = STORES[name].build(document, stores);
  };
  for (const name of EXPORT_ORDER) add(name);
  return stores as ProjectStores;
}

/** Tells `watcher` of every record each store puts or deletes; undefined stops the reports. */
export function watchStores(
  stores: ProjectStores,
  watcher: ((collection: CollectionName, key: string, deleted: boolean) => void) | undefined,
): void {
  for (const name of EXPORT_ORDER) {
    const store: { watch(watcher: RecordWatcher | undefined): void } = stores[name];
    store.watch(watcher && ((key, deleted) => watcher(name, key, deleted)));
  }
}

/** A collection's records as the project document has them, one at a time. */
export function storeView(stores: ProjectStores, name: CollectionName): CollectionView {
  const view = <K extends CollectionName>(collection: K) => STORES[collection].view(stores[collection]);
  return view(name);
}

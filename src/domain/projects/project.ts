import { FaultRules } from "../../emulation/faults/fault-rules.js";
import { RequestJournal } from "../../emulation/journal/journal.js";
import { RateLimiter } from "../../emulation/rate-limiter.js";
import type { Clock } from "../../platform/clock.js";
import { ProjectClock } from "../../platform/clock.js";
import { deepFreeze } from "../../platform/deep-freeze.js";
import { ApiKeyStore, toApiKey } from "../auth/api-key.js";
import { TokenStore, tokenFromInput } from "../auth/token-store.js";
import { CampaignStore } from "../campaigns/campaign.js";
import { CustomerStore } from "../customers/customer.js";
import { EarningRuleStore } from "../earning-rules/earning-rule.js";
import { EventStore } from "../events/event.js";
import { EventSchemaStore } from "../events/event-schema.js";
import { IncentiveStore } from "../incentives/incentive.js";
import { LocationStore } from "../locations/location.js";
import { PublicationStore } from "../publications/publication.js";
import type { KeySet, RecordWatcher } from "../record-store.js";
import { SegmentStore } from "../segments/segment.js";
import { TierStructureStore } from "../tiers/tier-structure.js";
import { publishCount, publishSummary } from "../vouchers/voucher.js";
import { VoucherStore } from "../vouchers/voucher-store.js";
import { WebhookStore } from "../webhooks/endpoint.js";
import { Outbox } from "../webhooks/outbox.js";
import type { CollectionName, ProjectDocument } from "./project-document.js";
import type { ProjectDefaults, ProjectSettings } from "./settings.js";

/**
 * One tenant: every resource the emulator keeps belongs to exactly one project, held in that project's stores,
 * with that project's clock. A project is built from a validated document and owns a deep copy of it, so the
 * fixtures it came from stay untouched and a reset can build it again.
 */
export class Project {
  readonly id: string;
  readonly name: string;
  readonly clock: ProjectClock;
  settings: ProjectSettings;

  readonly apiKeys: ApiKeyStore;
  readonly tokens: TokenStore;
  readonly locations: LocationStore;
  readonly campaigns: CampaignStore;
  readonly vouchers: VoucherStore;
  readonly customers: CustomerStore;
  readonly publications: PublicationStore;
  readonly segments: SegmentStore;
  readonly tierStructures: TierStructureStore;
  readonly incentives: IncentiveStore;
  readonly earningRules: EarningRuleStore;
  readonly eventSchemas: EventSchemaStore;
  readonly events: EventStore;
  readonly webhooks: WebhookStore;

  /**
   * What the control API observes and steers, kept with the project so that a reset or a deletion takes it along
   * and no project can reach another's: the request journal, the fault rules and the API call budget.
   */
  readonly journal = new RequestJournal(0);
  readonly faults = new FaultRules();
  readonly rateLimiter = new RateLimiter();
  /** The webhook deliveries made for this project's notifications (the audit log's "webhook send outs"). */
  readonly outbox = new Outbox();

  constructor(document: ProjectDocument, rootClock: Clock) {
    // Frozen, not copied: the stores share its records and only ever replace them, so the registry can keep the
    // same document for reset without a second copy of every record.
    const doc = deepFreeze(document);
    this.id = doc.project.id;
    this.name = doc.project.name ?? doc.project.id;
    this.settings = doc.project.settings;
    this.clock = new ProjectClock(rootClock, doc.project.clock.offset_ms);

    this.apiKeys = new ApiKeyStore(doc.api_keys.map(toApiKey));
    this.tokens = new TokenStore(doc.tokens.map(tokenFromInput));
    this.locations = new LocationStore(doc.locations);
    this.campaigns = new CampaignStore(doc.campaigns);
    this.customers = new CustomerStore(doc.customers);
    this.publications = new PublicationStore(doc.publications);
    this.vouchers = new VoucherStore(this.#countPublications(doc), (id) => this.campaigns.get(id));
    this.segments = new SegmentStore(doc.segments);
    this.tierStructures = new TierStructureStore(
      doc.tier_structures.map((structure) => ({
        ...structure,
        tiers: structure.tiers.map((tier) => ({ ...tier, tier_structure_id: structure.id })),
      })),
    );
    this.incentives = new IncentiveStore(doc.incentives);
    this.earningRules = new EarningRuleStore(doc.earning_rules);
    this.eventSchemas = new EventSchemaStore(doc.event_schemas);
    this.events = new EventStore(doc.events);
    this.webhooks = new WebhookStore(doc.webhooks);
  }

  /**
   * Reports every record a store of the project puts or deletes, by collection and key (a token's access token,
   * a key's app id, any other record's id); undefined stops the reports. Seeding is not reported.
   */
  watch(watcher: ((collection: CollectionName, key: string, deleted: boolean) => void) | undefined): void {
    const stores: { [K in CollectionName]: { watch(w: RecordWatcher | undefined): void } } = {
      api_keys: this.apiKeys,
      tokens: this.tokens,
      locations: this.locations,
      campaigns: this.campaigns,
      customers: this.customers,
      vouchers: this.vouchers,
      publications: this.publications,
      segments: this.segments,
      tier_structures: this.tierStructures,
      incentives: this.incentives,
      earning_rules: this.earningRules,
      event_schemas: this.eventSchemas,
      events: this.events,
      webhooks: this.webhooks,
    };
    for (const [collection, store] of Object.entries(stores) as [CollectionName, typeof stores.tokens][])
      store.watch(watcher && ((key, deleted) => watcher(collection, key, deleted)));
  }

  /**
   * The sets of values the stores of the largest collections hold, each built from exactly the records of the
   * document the project came from (see checkReferences): ids, card codes and source ids.
   */
  knownKeys(collection: string, field: string): KeySet | undefined {
    switch (`${collection}.${field}`) {
      case "vouchers.id":
        return this.vouchers;
      case "vouchers.code":
        return this.vouchers.codes;
      case "customers.id":
        return this.customers;
      case "customers.source_id":
        return this.customers.keysOf(this.customers.findBySourceId);
      case "publications.id":
        return this.publications;
      case "publications.source_id":
        return this.publications.keysOf(this.publications.findBySourceId);
      case "events.id":
        return this.events;
    }
    return undefined;
  }

  /** The settings in force: the project's own where it has them, the server's defaults elsewhere. */
  effectiveSettings(defaults: ProjectDefaults): ProjectDefaults {
    return {
      v2AuthMode: this.settings.v2_auth_mode ?? defaults.v2AuthMode,
      tokenGraceSeconds: this.settings.token_grace_seconds ?? defaults.tokenGraceSeconds,
      tokenLimit: defaults.tokenLimit,
      journalSize: this.settings.journal_size ?? defaults.journalSize,
      rateLimit: this.settings.rate_limit ?? defaults.rateLimit,
      caps: defaults.caps,
      webhooks: defaults.webhooks,
    };
  }

  /**
   * A card's publication count comes from the publications that name it, when the fixture lists any; a card with
   * a holder and none listed counts one (see publishCount). Only cards whose count differs get a `publish`.
   */
  #countPublications(doc: ProjectDocument) {
    const published = new Map<string, number>();
    for (const publication of doc.publications)
      published.set(publication.voucher_id, (published.get(publication.voucher_id) ?? 0) + 1);
    return doc.vouchers.map((voucher) => {
      const count = published.get(voucher.id);
      if (count === undefined || voucher.publish || count === publishCount(voucher)) return voucher;
      return { ...voucher, publish: publishSummary(voucher.code, count) };
    });
  }
}

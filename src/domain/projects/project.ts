import { type FaultRefusals, FaultRules } from "../../emulation/faults/fault-rules.js";
import { RequestJournal } from "../../emulation/journal/journal.js";
import { RateLimiter } from "../../emulation/rate-limiter.js";
import type { Clock } from "../../platform/clock.js";
import { ProjectClock } from "../../platform/clock.js";
import { deepFreeze, deepFreezeInSteps } from "../../platform/deep-freeze.js";
import { type IdSource, randomIds } from "../../platform/ids.js";
import { runToEnd, type Steps } from "../../platform/steps.js";
import { CAP_VARIABLES } from "../caps.js";
import { limitExceeded, notFound } from "../errors.js";
import { ProjectFigures } from "../figures/project-figures.js";
import type { KeySet } from "../record-store.js";
import { Outbox } from "../webhooks/outbox.js";
import { COLLECTION_NAMES, type CollectionName, type ProjectDocument } from "./project-document.js";
import type { ProjectDefaults, ProjectSettings } from "./settings.js";
import {
  buildStores,
  collectionNamed,
  fieldOf,
  type ProjectStores,
  type StoreFields,
  watchStores,
} from "./stores.js";

/**
 * How a project's fault rules refuse: an unknown rule id is 404, one rule past the cap 409 naming the project, as
 * every other cap of a project does (domain/caps.ts).
 */
export function faultRefusals(projectId: string): FaultRefusals {
  return {
    notFound: (id) => notFound("fault", id),
    full: (limit) =>
      limitExceeded(`Project ${projectId}`, "fault rules", limit, CAP_VARIABLES.faultsPerProject),
  };
}

/** How a project draws its values, and where its clock stands still (see the constructor). */
interface ProjectOptions {
  ids?: IdSource;
  freezeAt?: number | undefined;
}

/** What a project builds from its (frozen) document: the most of its work, at a million cards. */
interface Built {
  stores: ProjectStores;
  figures: ProjectFigures;
}

function* buildParts(document: ProjectDocument): Steps<Built> {
  const stores = yield* buildStores(document);
  return { stores, figures: yield* ProjectFigures.build(stores) };
}

/** Each store of the project is also a field of its own, named for its collection (`project.tierStructures`). */
export interface Project extends StoreFields {}

/**
 * One tenant: every resource the emulator keeps belongs to exactly one project, held in that project's stores,
 * with that project's clock. A project is built from a validated document and owns a deep copy of it, so the
 * fixtures it came from stay untouched and a reset can build it again.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: StoreFields are set in the constructor, from the list.
export class Project {
  readonly id: string;
  readonly name: string;
  readonly clock: ProjectClock;
  /** Where every value the server makes up for this project comes from: seeded, or the CSPRNG. */
  readonly ids: IdSource;
  /** The project's own seed, when it was created with one (kept in its document, so a reset draws the same values). */
  readonly seed: string | undefined;
  settings: ProjectSettings;
  #effective:
    | { settings: ProjectSettings; defaults: ProjectDefaults; effective: ProjectDefaults }
    | undefined;

  /** The project's stores by collection (stores.ts); each is also a field of its own (StoreFields). */
  readonly stores: ProjectStores;
  /** What the audience views read, kept up to date as the stores change (domain/figures). */
  readonly figures: ProjectFigures;

  /**
   * What the control API observes and steers, kept with the project so that a reset or a deletion takes it along
   * and no project can reach another's: the request journal, the fault rules and the API call budget.
   */
  readonly journal = new RequestJournal(0);
  readonly faults: FaultRules;
  readonly rateLimiter = new RateLimiter();
  /** The webhook deliveries made for this project's notifications (the audit log's "webhook send outs"). */
  readonly outbox = new Outbox();

  /**
   * `options.ids`: the project's source of made-up values (the registry decides it from the seeds; the CSPRNG
   * by default); `options.freezeAt`: the moment the clock stands still at when the document's clock runs.
   * `built`: its stores and figures, built from the same document by `Project.build`; built here at once without.
   */
  constructor(document: ProjectDocument, rootClock: Clock, options: ProjectOptions = {}, built?: Built) {
    // Frozen, not copied: the stores share its records and only ever replace them, so the registry can keep the
    // same document for reset without a second copy of every record.
    const doc = deepFreeze(document);
    this.id = doc.project.id;
    this.faults = new FaultRules(faultRefusals(this.id));
    this.name = doc.project.name ?? doc.project.id;
    this.settings = doc.project.settings;
    const { clock } = doc.project;
    const frozenAt = clock.frozen_at === undefined ? options.freezeAt : Date.parse(clock.frozen_at);
    this.clock = new ProjectClock(rootClock, clock.offset_ms, frozenAt);
    this.seed = doc.project.seed;
    this.ids = options.ids ?? randomIds;

    const { stores, figures } = built ?? runToEnd(buildParts(doc));
    this.stores = stores;
    for (const name of COLLECTION_NAMES) (this as Record<string, unknown>)[fieldOf(name)] = this.stores[name];
    this.figures = figures;
  }

  /**
   * The project a document makes, built a step at a time (platform/steps.ts): a control call that builds one (a
   * reset, a restore, an import, a new project) runs it in slices, and requests run between them. It reads only
   * the document, frozen first, so what it builds does not depend on when the slices run.
   */
  static *build(document: ProjectDocument, rootClock: Clock, options: ProjectOptions = {}): Steps<Project> {
    const doc = yield* deepFreezeInSteps(document);
    return new Project(doc, rootClock, options, yield* buildParts(doc));
  }

  /**
   * Reports every record a store of the project puts or deletes, by collection and key (a token's access token,
   * a key's app id, any other record's id); undefined stops the reports. Seeding is not reported.
   */
  watch(watcher: ((collection: CollectionName, key: string, deleted: boolean) => void) | undefined): void {
    watchStores(this.stores, watcher);
  }

  /**
   * The sets of values the stores of the largest collections hold, each built from exactly the records of the
   * document the project came from (see checkReferences): ids, card codes and source ids.
   */
  knownKeys(collection: string, field: string): KeySet | undefined {
    const keySets = collectionNamed(collection)?.keySets;
    return keySets?.(this.stores[collection as CollectionName])[field];
  }

  /** The settings in force: the project's own where it has them, the server's defaults elsewhere. */
  effectiveSettings(defaults: ProjectDefaults): ProjectDefaults {
    // Asked on every request (rate limit, journal): made once per settings object and defaults object. Settings
    // are replaced whole, never changed in place (http/control/settings.ts), so a new object means new answers.
    const memo = this.#effective;
    if (memo !== undefined && memo.settings === this.settings && memo.defaults === defaults)
      return memo.effective;
    const effective: ProjectDefaults = {
      v2AuthMode: this.settings.v2_auth_mode ?? defaults.v2AuthMode,
      tokenGraceSeconds: this.settings.token_grace_seconds ?? defaults.tokenGraceSeconds,
      tokenLimit: defaults.tokenLimit,
      journalSize: this.settings.journal_size ?? defaults.journalSize,
      rateLimit: this.settings.rate_limit ?? defaults.rateLimit,
      caps: defaults.caps,
      webhooks: defaults.webhooks,
    };
    this.#effective = { settings: this.settings, defaults, effective };
    return effective;
  }
}

import { ChangeFeed } from "../../emulation/change-feed.js";
import type { Clock } from "../../platform/clock.js";
import { deepFreeze } from "../../platform/deep-freeze.js";
import { type IdSource, idSourceFor, randomIds } from "../../platform/ids.js";
import { SLICE_MS, type Steps } from "../../platform/steps.js";
import { CAP_VARIABLES } from "../caps.js";
import { type ApiError, apiError, conflict, limitExceeded } from "../errors.js";
import { type Send, WebhookDispatcher } from "../webhooks/dispatcher.js";
import { type BuildPlan, BuildQueue, buildNow } from "./builds.js";
import { CredentialIndex, checkFixturesClaimEachOnce } from "./credential-index.js";
import { idsPast } from "./id-streams.js";
import { Project } from "./project.js";
import type { CollectionName, ProjectDocument } from "./project-document.js";
import type { ProjectDefaults } from "./settings.js";
import {
  admitRestore,
  documentToRestore,
  makeRoomToRestore,
  makeRoomToSave,
  type Snapshot,
  SnapshotShelf,
  type SnapshotWatcher,
} from "./snapshots.js";

function projectNotFound(id: string): ApiError {
  return apiError("not_found", {
    details: `Cannot find project with id ${id}`,
    resourceId: id,
    resourceType: "project",
  });
}

/**
 * How a project came to be installed: a state file logs each differently (see src/persistence). A `replaced`
 * project put back as one of its named snapshots holds it names that snapshot (`snapshot`).
 */
export type InstallKind = "added" | "replaced" | "restored" | "reset";

/** Told every change to the registry's projects, as it happens: the seam the state file's change log uses. */
export interface RegistryWatcher extends SnapshotWatcher {
  installed(project: Project, kind: InstallKind, snapshot?: string): void;
  removed(id: string): void;
  record(project: Project, collection: CollectionName, key: string, deleted: boolean): void;
}

/**
 * All projects of the server, found by id or by a credential (credential-index.ts: app id and access token to
 * project, the only state shared between projects), with each one's fixtures for reset.
 */
export class ProjectRegistry {
  readonly clock: Clock;
  readonly defaults: ProjectDefaults;
  /** Sends every project's webhook notifications; one per server, so its settings and shutdown are the server's. */
  readonly dispatcher: WebhookDispatcher;
  /** Who watches which project live (the dashboard), told of every change of its projects. */
  readonly feed: ChangeFeed;
  readonly #projects = new Map<string, Project>();
  readonly #fixtures = new Map<string, ProjectDocument>();
  readonly #credentials = new CredentialIndex();
  /**
   * Projects whose fixtures were posted (the control API), not loaded from the server's fixtures: a state file
   * keeps the mark (fixturesPosted), so a restart draws as the server before it did.
   */
  readonly #imported = new Set<string>();
  #watcher: RegistryWatcher | undefined;
  /** Each project's named snapshots (snapshots.ts), kept by project id across resets, imports and restores. */
  readonly snapshots = new SnapshotShelf(() => this.#watcher);
  /** The server's seed (LOYALTY_MOCK_SEED), for every project that has none of its own. */
  readonly seed: string | undefined;
  /** Where every project's clock starts and stands still (LOYALTY_MOCK_FREEZE_CLOCK), in ms since the epoch. */
  readonly freezeAt: number | undefined;
  /** The server's own source of made-up values: what belongs to no project (a control call's request id). */
  readonly ids: IdSource;
  #seeded: boolean;
  readonly #builds: BuildQueue;
  /** The bytes the restores being built were admitted for (see #restorePlan). */
  #restoring = 0;
  /**
   * How long a build the control API asked for (or the validation of a document it was given) runs before the
   * event loop gets a turn, in ms (platform/steps.ts); 0 gives it one after every step of a few hundred records.
   */
  readonly sliceMs: number;

  /**
   * `defaults`: the server-wide settings each project falls back on (the entry points take them from
   * config/settings.ts); `send`: how a webhook delivery is POSTed (node:http by default).
   */
  constructor(options: {
    clock: Clock;
    defaults: ProjectDefaults;
    documents?: ProjectDocument[];
    send?: Send;
    /** Every value made up follows from this (per project, see Project.ids); without it, the CSPRNG. */
    seed?: string | undefined;
    /** Every project's clock starts at this moment (ms since the epoch) and stands still until moved. */
    freezeAt?: number | undefined;
    /** How long a control call's build runs before requests get a turn (ms): `sliceMs` below. */
    sliceMs?: number | undefined;
  }) {
    this.clock = options.clock;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.#builds = new BuildQueue(this.sliceMs);
    this.seed = options.seed;
    this.freezeAt = options.freezeAt;
    this.ids = idSourceFor(options.seed, "server");
    this.#seeded = options.seed !== undefined;
    this.defaults = { ...options.defaults };
    this.feed = new ChangeFeed();
    // A delivery made or answered is news for the dashboard's webhooks panel.
    this.dispatcher = new WebhookDispatcher(this.defaults.webhooks, options.send, (projectId) =>
      this.feed.announce(projectId, "webhooks"),
    );
    for (const document of options.documents ?? []) this.add(document);
  }

  /** One watcher (the state file's); the projects already installed report their records' changes to it from now on. */
  watch(watcher: RegistryWatcher | undefined): void {
    this.#watcher = watcher;
    for (const project of this.#projects.values()) this.#watchProject(project);
  }

  /** Adds a project built from a validated document; the document is kept as the project's fixtures for reset. */
  add(document: ProjectDocument): Project {
    return buildNow(this.#addPlan(document, false));
  }

  /**
   * Adds a project the control API was asked for, within the server's cap on projects (fixtures and state files
   * are loaded whole, through add and restore). Checked first, so a refusal changes nothing.
   */
  create(document: ProjectDocument): Project {
    return buildNow(this.#addPlan(document, true));
  }

  /** `create`, built in slices after any build of the same id asked before (BuildQueue). */
  createInSlices(document: ProjectDocument): Promise<Project> {
    return this.#builds.run(document.project.id, () => this.#addPlan(document, true));
  }

  /**
   * Puts a new state in place of a project's (a state import), keeping its fixtures for reset. Everything that
   * can refuse the document is checked before the old project is touched, so a refusal changes nothing.
   */
  replace(document: ProjectDocument): Project {
    return buildNow(this.#replacePlan(document));
  }

  /** `replace`, built in slices while the project serves as it was, after its builds asked before (BuildQueue). */
  replaceInSlices(document: ProjectDocument): Promise<Project> {
    return this.#builds.run(document.project.id, () => this.#replacePlan(document));
  }

  /**
   * A project added (`capped`: created through the control API, within the cap on projects, its document
   * posted). Refused at once and again at the install, as another build may have taken the id or a credential.
   */
  #addPlan(document: ProjectDocument, capped: boolean): BuildPlan<Project, Project> {
    const id = document.project.id;
    const check = () => {
      const limit = this.defaults.caps.projects;
      if (capped && this.#projects.size >= limit)
        throw limitExceeded("The server", "projects", limit, CAP_VARIABLES.projects);
      if (this.#projects.has(id)) throw conflict(`A project with id ${id} exists already`);
      this.#credentials.checkFree(document, undefined);
    };
    check();
    // A posted document may be an export: its project draws past it, now and after each reset.
    const posted = capped || this.#imported.has(id);
    return {
      steps: this.#build(document, posted),
      install: (project) => {
        check();
        if (posted) this.#imported.add(id);
        this.#fixtures.set(id, document);
        this.#install(project, "added");
        return project;
      },
    };
  }

  /**
   * A project's state replaced by `document` (`snapshot`: its restore). The project must still be the one it
   * was (deleted, or deleted and made again, is 404) and the document's credentials free when it is installed.
   */
  #replacePlan(document: ProjectDocument, snapshot?: Snapshot): BuildPlan<Project, Project> {
    const id = document.project.id;
    const current = this.#sameProject(id, document);
    current();
    const build = function* (this: ProjectRegistry): Steps<Project> {
      // The state says what its clock is; a seeded project draws past every value the state holds (id-streams.ts).
      const ids = yield* idsPast(this.#idsFor(document), document);
      return yield* Project.build(document, this.clock, { ids });
    };
    return {
      steps: build.call(this),
      install: (project) => {
        const replaced = current();
        // A snapshot's clock runs on from the moment it showed, which is now, not when the build began.
        if (snapshot !== undefined && snapshot.document.project.clock.frozen_at === undefined)
          project.clock.set(snapshot.clockAt);
        this.#uninstall(replaced);
        // The state file names the snapshot only while it is still the one of that name (not deleted, not saved
        // over since the build began); otherwise it writes the state whole.
        const named = snapshot && this.snapshots.holds(id, snapshot) ? snapshot.name : undefined;
        this.#install(project, "replaced", named);
        return project;
      },
    };
  }

  /**
   * The installed project of this id, checked to be the one a build began for (by its fixtures, which are the
   * same object for a project's whole life) and to leave `document`'s credentials free: what an install checks.
   */
  #sameProject(id: string, document: ProjectDocument): () => Project {
    const fixtures = this.#fixtures.get(id);
    if (!fixtures) throw projectNotFound(id);
    return () => {
      const project = this.get(id);
      if (this.#fixtures.get(id) !== fixtures) throw projectNotFound(id);
      this.#credentials.checkFree(document, project);
      return project;
    };
  }

  /**
   * Puts a project back as a state file holds it: built from its saved state, with its fixtures kept for reset.
   * Only the state's credentials are checked against the other projects: the fixtures may name a key that was
   * deleted since and now belongs to another project. `verify` sees the project built, before it is installed.
   */
  restore(
    fixtures: ProjectDocument,
    state: ProjectDocument,
    options: {
      verify?: ((project: Project) => void) | undefined;
      snapshots?: readonly Snapshot[];
      /** Whether the fixtures were posted (fixturesPosted): each reset then draws past them again. */
      posted?: boolean;
    } = {},
  ): Project {
    const { verify, snapshots = [], posted = false } = options;
    const id = state.project.id;
    if (this.#projects.has(id)) throw conflict(`A project with id ${id} exists already`);
    this.#credentials.checkFree(state, undefined);
    // The saved records hold values the project's stream made before the restart: a seeded project draws from a
    // fresh stream of its own (salted at random), so it never makes one of them again.
    const salt = this.#seedOf(state) === undefined ? "" : `\u0000restored\u0000${randomIds.hex(16)}`;
    const project = new Project(state, this.clock, { ids: this.#idsFor(state, salt) });
    verify?.(project);
    this.#fixtures.set(id, deepFreeze(fixtures));
    if (posted) this.#imported.add(id);
    for (const snapshot of snapshots) this.snapshots.put(id, snapshot);
    this.#install(project, "restored");
    return project;
  }

  /**
   * Saves the project's state under `name` (SnapshotShelf.save says what is refused). A heap over the memory
   * budget, garbage included, is first collected beside the running code; the project saved is the one installed
   * once that is done (a build may have replaced it meanwhile; a deletion is 404).
   */
  async saveSnapshot(id: string, name: string, replace: boolean): Promise<Snapshot> {
    const budgetMb = this.defaults.caps.snapshotMemoryMb;
    await makeRoomToSave(this.get(id), budgetMb);
    return this.snapshots.save(this.get(id), name, {
      replace,
      limit: this.defaults.caps.snapshotsPerProject,
      now: this.clock.now(),
      budgetMb,
    });
  }

  /**
   * Puts a project back as one of its named snapshots holds it, clock included (snapshots.ts); its fixtures stay
   * for reset. A seeded project then draws past every value the snapshot holds, as after a state import.
   */
  restoreSnapshot(id: string, name: string): Project {
    return buildNow(this.#restorePlan(id, name));
  }

  /**
   * `restoreSnapshot`, built in slices while the project serves as it was. The snapshot is read when its turn
   * comes: deleting it or saving over it meanwhile does not change what is put back.
   */
  restoreSnapshotInSlices(id: string, name: string): Promise<Project> {
    // When its turn comes, the heap is first made room in beside the running code, so that the admission below
    // need not stop every request for a full collection (the garbage of the builds before it).
    const prepare = () =>
      makeRoomToRestore(
        this.snapshots.get(this.get(id).id, name),
        this.defaults.caps.snapshotMemoryMb,
        this.#restoring,
      );
    return this.#builds.run(id, () => this.#restorePlan(id, name), prepare);
  }

  /**
   * A restore, admitted within the memory budget beside the restores still being built (each holds what it was
   * admitted for until its build ends): two restores of a million cards started together cannot both pass a
   * budget that has room for one.
   */
  #restorePlan(id: string, name: string): BuildPlan<Project, Project> {
    const snapshot = this.snapshots.get(this.get(id).id, name);
    const bytes = admitRestore(id, snapshot, this.defaults.caps.snapshotMemoryMb, this.#restoring);
    const plan = this.#replacePlan(documentToRestore(snapshot, this.clock.now()), snapshot);
    this.#restoring += bytes;
    return {
      ...plan,
      settled: () => {
        this.#restoring -= bytes;
      },
    };
  }

  /** The document a project was added from, which a reset goes back to. Not a copy: do not change it. */
  fixturesOf(id: string): Readonly<ProjectDocument> {
    const fixtures = this.#fixtures.get(id);
    if (!fixtures) throw projectNotFound(id);
    return fixtures;
  }

  /**
   * Whether a project's fixtures were posted (POST /__mock/projects) rather than loaded: a seeded one then draws
   * past them (id-streams.ts) after every reset. The state file keeps it, so a restart changes no id drawn.
   */
  fixturesPosted(id: string): boolean {
    if (!this.#fixtures.has(id)) throw projectNotFound(id);
    return this.#imported.has(id);
  }

  get(id: string): Project {
    const project = this.#projects.get(id);
    if (!project) throw projectNotFound(id);
    return project;
  }

  list(): Project[] {
    return [...this.#projects.values()];
  }

  remove(id: string): void {
    this.#uninstall(this.get(id));
    this.#fixtures.delete(id);
    this.#imported.delete(id);
    this.snapshots.drop(id);
    this.#watcher?.removed(id);
    this.feed.announce(id, "project");
  }

  /**
   * Puts a project back to its fixtures: its data, keys, tokens and clock. A fixture key whose app id another
   * project has taken since (the key was deleted here and created there) is a 409, and nothing changes.
   */
  reset(id: string): Project {
    return buildNow(this.#resetPlan(id));
  }

  /** `reset`, built in slices while the project serves as it was, after its builds asked before (BuildQueue). */
  resetInSlices(id: string): Promise<Project> {
    return this.#builds.run(id, () => this.#resetPlan(id));
  }

  #resetPlan(id: string): BuildPlan<Project, Project> {
    const fixtures = this.#fixtures.get(id);
    if (!fixtures) throw projectNotFound(id);
    const current = this.#sameProject(id, fixtures);
    current();
    return {
      steps: this.#build(fixtures, this.#imported.has(id)),
      install: (project) => {
        this.#uninstall(current());
        this.#install(project, "reset");
        return project;
      },
    };
  }

  /**
   * Every project back to its fixtures, all or nothing: the fixtures must not claim one app id or token twice
   * (they can, once keys have moved between projects), or none is reset.
   */
  resetAll(): void {
    buildNow(this.#resetAllPlan());
  }

  /** `resetAll`, built in slices after every build asked before it; every build asked after waits for it. */
  resetAllInSlices(): Promise<void> {
    return this.#builds.runAll(() => this.#resetAllPlan());
  }

  /**
   * Stops the builds the control API started (a closing server): none installs anything from now on. Resolves
   * once none runs.
   */
  stopBuilds(): Promise<void> {
    return this.#builds.stop();
  }

  #resetAllPlan(): BuildPlan<Project[], void> {
    checkFixturesClaimEachOnce(this.#fixtures);
    const targets = [...this.#fixtures];
    const build = function* (this: ProjectRegistry): Steps<Project[]> {
      const built: Project[] = [];
      for (const [id, fixtures] of targets) built.push(yield* this.#build(fixtures, this.#imported.has(id)));
      return built;
    };
    return {
      steps: build.call(this),
      install: (built) => {
        // A project deleted meanwhile stays deleted; creates wait for this build, so there is no other.
        checkFixturesClaimEachOnce(this.#fixtures);
        const kept = built.filter((_, i) => {
          const [id, fixtures] = targets[i] as [string, ProjectDocument];
          return this.#fixtures.get(id) === fixtures;
        });
        for (const project of kept) this.#uninstall(this.get(project.id));
        for (const project of kept) this.#install(project, "reset");
      },
    };
  }

  projectForAppId(appId: string): Project | undefined {
    return this.#credentials.projectForAppId(appId);
  }

  projectForToken(accessToken: string): Project | undefined {
    return this.#credentials.projectForToken(accessToken);
  }

  indexAppId(appId: string, project: Project): void {
    this.#credentials.indexAppId(appId, project);
  }

  unindexAppId(appId: string): void {
    this.#credentials.unindexAppId(appId);
  }

  indexToken(accessToken: string, project: Project): void {
    this.#credentials.indexToken(accessToken, project);
  }

  unindexTokens(accessTokens: Iterable<string>): void {
    this.#credentials.unindexTokens(accessTokens);
  }

  /**
   * A project as fixtures or a created document make it, a step at a time: its clock frozen at the server's moment
   * when one is set, its values drawn from the start of its seeded stream (so a reset draws the same values again,
   * and a suite that resets between tests gets the same ids whatever order its tests run in), or past the
   * document's values when it was posted.
   */
  *#build(document: ProjectDocument, posted: boolean): Steps<Project> {
    const ids = this.#idsFor(document);
    return yield* Project.build(document, this.clock, {
      ids: posted ? yield* idsPast(ids, document) : ids,
      freezeAt: this.freezeAt,
    });
  }

  #seedOf(document: ProjectDocument): string | undefined {
    return document.project.seed ?? this.seed;
  }

  #idsFor(document: ProjectDocument, salt = ""): IdSource {
    return idSourceFor(this.#seedOf(document), `project\u0000${document.project.id}${salt}`);
  }

  /** Whether any value is drawn from a seed: the server's, or a project's own (set once, never cleared). */
  get seeded(): boolean {
    return this.#seeded;
  }

  #install(project: Project, kind: InstallKind, snapshot?: string): void {
    if (project.ids.seeded) this.#seeded = true;
    this.#projects.set(project.id, project);
    this.#credentials.add(project);
    this.#watchProject(project);
    this.#watcher?.installed(project, kind, snapshot);
    this.feed.announce(project.id, "project");
  }

  /** The state file's watcher, when there is one, and the live feed: a map lookup while nobody watches. */
  #watchProject(project: Project): void {
    const watcher = this.#watcher;
    const feed = this.feed;
    const id = project.id;
    project.watch((collection, key, deleted) => {
      watcher?.record(project, collection, key, deleted);
      feed.recordChanged(id, collection);
    });
    project.journal.watch((record) =>
      feed.requestJournaled(id, () => ({
        method: record.method,
        path: record.path,
        status: record.status,
        operation: record.operation,
        time_ms: record.timeMs,
      })),
    );
  }

  /** Drops the project and the index entries that point at it (and only those). */
  #uninstall(project: Project): void {
    // A project taken out may still be read by a request in flight; nothing it does is the registry's any more.
    project.watch(undefined);
    project.journal.watch(undefined);
    this.#projects.delete(project.id);
    this.#credentials.remove(project);
  }
}

import { parseDocument } from "../../platform/documents.js";
import type { ApiKey } from "../auth/api-key.js";
import type { TokenRecord } from "../auth/token-store.js";
import { invalidDocument } from "../errors.js";
import type { Project } from "./project.js";
import { type CollectionName, type ProjectDocument, projectDocumentSchema } from "./project-document.js";
import type { ProjectRegistry } from "./registry.js";

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
 * A project's whole state as a project document, in the fixture format: what `new Project(document)` would
 * build again. Records are written as they are stored: a card the API wrote is whole, a fixture card still leaves
 * out what follows from the rest (as fixtures may). Records keep their order (the members endpoint hands out cards
 * in that order). The result shares nothing with the project.
 */
export function exportProject(project: Project): ProjectDocument {
  return structuredClone(projectState(project));
}

/** The collections in the order `projectState` (and so an export) writes them. */
export const EXPORT_ORDER: readonly CollectionName[] = [
  "api_keys",
  "tokens",
  "locations",
  "campaigns",
  "vouchers",
  "customers",
  "publications",
  "segments",
  "tier_structures",
  "incentives",
  "earning_rules",
  "event_schemas",
  "events",
  "webhooks",
];

/**
 * The same document as `exportProject`, sharing the project's records instead of copying them: a view to read at
 * once, never to keep or change. It lets a test compare states without copying every record: a record the project
 * still shares with its frozen fixtures is the same object, unchanged.
 */
export function projectState(project: Project): ProjectDocument {
  // Mapped over CollectionName, so a collection added to the document without an export here fails to compile.
  const collections: { [K in CollectionName]: ProjectDocument[K] } = {
    api_keys: project.apiKeys.list().map(keyDocument),
    tokens: project.tokens.list().map(tokenDocument),
    locations: project.locations.list(),
    campaigns: project.campaigns.list(),
    vouchers: [...project.vouchers.records()],
    customers: project.customers.list(),
    publications: project.publications.list(),
    segments: project.segments.list(),
    tier_structures: project.tierStructures.list(),
    incentives: project.incentives.list(),
    earning_rules: project.earningRules.list(),
    event_schemas: project.eventSchemas.list(),
    events: project.events.list(),
    webhooks: project.webhooks.list(),
  };
  return { project: projectHeader(project), ...collections };
}

/** One collection of a project in document form, keyed as its store reports changes (see Project.watch). */
export interface CollectionView {
  get(key: string): unknown;
  entries(): Iterable<[string, unknown]>;
}

/** What a view reads of a record store; structural, so every store's record type fits. */
interface StoredRecords<T extends { id: string }> {
  stored(id: string): T | undefined;
  storedValues(): IterableIterator<T>;
}

function recordView<T extends { id: string }>(store: StoredRecords<T>, toDocument: (record: T) => unknown) {
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

const asStored = <T>(record: T) => record;

/**
 * A collection's records as `projectState` writes them, one at a time: what a state file logs for a change and
 * streams for a snapshot, and what a streamed export writes, without building the whole document.
 */
export function collectionView(project: Project, name: CollectionName): CollectionView {
  switch (name) {
    case "api_keys":
      return recordView(project.apiKeys, keyDocument);
    case "tokens":
      return {
        get: (key) => {
          const token = project.tokens.find(key);
          return token && tokenDocument(token);
        },
        entries: () => project.tokens.list().map((token) => [token.accessToken, tokenDocument(token)]),
      };
    case "vouchers":
      return recordView(project.vouchers, asStored);
    default:
      return recordView(STORE_OF[name](project), asStored);
  }
}

const STORE_OF: {
  [K in Exclude<CollectionName, "api_keys" | "tokens" | "vouchers">]: (
    project: Project,
  ) => StoredRecords<{ id: string }>;
} = {
  locations: (project) => project.locations,
  campaigns: (project) => project.campaigns,
  customers: (project) => project.customers,
  publications: (project) => project.publications,
  segments: (project) => project.segments,
  tier_structures: (project) => project.tierStructures,
  incentives: (project) => project.incentives,
  earning_rules: (project) => project.earningRules,
  event_schemas: (project) => project.eventSchemas,
  events: (project) => project.events,
  webhooks: (project) => project.webhooks,
};

/** The `project` part of a project's document: what is not in a collection. */
export function projectHeader(project: Project): ProjectDocument["project"] {
  return {
    id: project.id,
    name: project.name,
    settings: project.settings,
    clock: { offset_ms: project.clock.offsetMs },
  };
}

/**
 * Validates a project document the way the fixture loader does (schemas, then references); a problem is a 400
 * naming its JSON path, such as `$.vouchers[2].code: should be string`.
 */
export function parseProjectDocument(input: unknown): ProjectDocument {
  const parsed = parseDocument(projectDocumentSchema, input);
  if (!parsed.ok) throw invalidDocument(parsed.problem);
  return parsed.value;
}

/**
 * Replaces a project's state with a document, all or nothing: the document is checked whole (shape,
 * references, the project's id, app ids and tokens unused by other projects) before anything changes. The
 * project's fixtures stay as they were, so a reset still goes back to them.
 */
export function replaceProjectState(registry: ProjectRegistry, projectId: string, input: unknown): Project {
  const document = parseProjectDocument(input);
  registry.get(projectId);
  if (document.project.id !== projectId)
    throw invalidDocument({
      path: ["project", "id"],
      problem: `should be ${projectId}, the project being replaced`,
    });
  return registry.replace(document);
}

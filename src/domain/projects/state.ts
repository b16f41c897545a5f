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
  };
  return {
    project: {
      id: project.id,
      name: project.name,
      settings: project.settings,
      clock: { offset_ms: project.clock.offsetMs },
    },
    ...collections,
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

import { z } from "zod";
import { type IdSource, SeededIds } from "../../platform/ids.js";
import { withCredentials } from "../auth/api-key.js";
import { PROJECT_ID } from "./project-document.js";
import type { ProjectRegistry } from "./registry.js";

/**
 * What POST /__mock/projects accepts: a whole project document in the fixture format, or the id of a loaded
 * project to copy. Either way the new project gets credentials no other project has, so parallel CI jobs that
 * each create one never share a key.
 */
export const templateRequestSchema = z.strictObject({
  template: z.string().min(1),
  project_id: z.string().regex(PROJECT_ID, "must be 1-63 lowercase letters, digits, - or _").optional(),
  name: z.string().min(1).max(200).optional(),
  seed: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Every value made up for the project (its id and keys, then ids, codes and tokens) follows from this seed. " +
        "Predictable by design: for tests only.",
    ),
});

export type TemplateRequest = z.output<typeof templateRequestSchema>;

/** `proj-` and 12 hex characters: unguessable enough that parallel jobs never collide. */
function freshProjectId(ids: IdSource): string {
  return `proj-${ids.hex(6)}`;
}

/**
 * Where a created project's id and keys come from: its own seed when the request gives one (so the same request
 * makes the same project on any server), else the server's source (seeded by LOYALTY_MOCK_SEED, or the CSPRNG).
 */
export function creationIds(seed: string | undefined, serverIds: IdSource): IdSource {
  return seed === undefined ? serverIds : new SeededIds(seed, "created project");
}

/** The seed a posted document names for its project, if any; read before parsing, to make its id and keys. */
export function postedSeed(body: Record<string, unknown>): string | undefined {
  const project = body.project;
  if (!isObject(project)) return undefined;
  return typeof project.seed === "string" && project.seed.length > 0 ? project.seed : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Fills in what a document may leave out when it is posted rather than loaded: the project id, and API keys or
 * their credentials, drawn from `ids` in that order. Anything else goes through the fixture schema unchanged, so a
 * bad document is refused with the same JSON paths a broken fixture file would get.
 */
export function filledPostedDocument(input: unknown, ids: IdSource): unknown {
  if (!isObject(input)) return input;
  const project = input.project === undefined ? {} : input.project;
  const keys = input.api_keys === undefined ? [] : input.api_keys;
  return {
    ...input,
    project:
      isObject(project) && project.id === undefined ? { ...project, id: freshProjectId(ids) } : project,
    api_keys: Array.isArray(keys)
      ? keys.length === 0
        ? [withCredentials({ name: "Generated key" }, ids)]
        : keys.map((key) => (isObject(key) ? withCredentials(key, ids) : key))
      : keys,
  };
}

/**
 * A copy of a loaded project's fixtures (its data as loaded, not as tests have since changed it) under a new id and
 * fresh credentials, as a document to validate (parseDocumentInSteps: a template may hold a million cards). Its
 * tokens stay behind: they belong to the template's keys.
 */
export function documentFromTemplate(
  registry: ProjectRegistry,
  request: TemplateRequest,
  ids: IdSource,
): unknown {
  const source = registry.fixturesOf(request.template);
  // client_id is derived from the app id unless a fixture fixed it; a copy must not share the template's.
  const api_keys: Record<string, unknown>[] = source.api_keys.map(({ client_id: _template, ...key }) => ({
    ...key,
    app_id: ids.uuid(),
    app_token: ids.uuid(),
  }));
  if (api_keys.length === 0) api_keys.push(withCredentials({ name: "Generated key" }, ids));
  return {
    ...source,
    project: {
      ...source.project,
      id: request.project_id ?? freshProjectId(ids),
      name: request.name ?? source.project.name ?? source.project.id,
      ...(request.seed === undefined ? {} : { seed: request.seed }),
    },
    api_keys,
    tokens: [],
  };
}

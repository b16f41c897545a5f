import { KEY, operation, P, query, ref, type Schema } from "./openapi-operation.js";
import { listSchema } from "./openapi-schemas.js";
import { DEFAULT_VIEW_LIMIT, VIEWS } from "./views.js";

/** The paths of the control API's OpenAPI document, one function per group of routes. */

export function viewPaths(): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const view of VIEWS) {
    const dataRef = view.name.replaceAll("-", "_");
    paths[`/__mock/projects/{projectId}/${view.name}`] = {
      get: operation("views", {
        summary: `The project's ${view.name.replaceAll("-", " ")}`,
        params: P,
        query: [
          ...view.filters.map((field) =>
            query(field, `Only records whose ${field} is this ("null" for none)`),
          ),
          query("limit", `At most this many (default ${DEFAULT_VIEW_LIMIT})`, {
            type: "integer",
            minimum: 1,
          }),
          query("offset", "Skip this many", { type: "integer", minimum: 0 }),
        ],
        ok: listSchema(dataRef, ref(view.component)),
        errors: [400],
      }),
    };
    paths[`/__mock/projects/{projectId}/${view.name}/{recordId}`] = {
      get: operation("views", {
        summary: `One of the project's ${view.name.replaceAll("-", " ")}, by id${view.alternateKey ? " (or code/name)" : ""}`,
        params: [...P, "recordId"],
        ok: ref(view.component),
      }),
    };
  }
  return paths;
}

export function projectPaths(): Record<string, Schema> {
  return {
    "/__mock/health": {
      get: operation("server", { summary: "Liveness: 200 once the fixtures are loaded", ok: ref("Health") }),
    },
    "/__mock/openapi.json": {
      get: operation("server", {
        summary: "This document",
        ok: { type: "object", required: ["openapi", "paths"] },
      }),
    },
    "/__mock/reset": {
      post: operation("projects", {
        summary: "Every project back to its fixtures",
        description: "All or nothing: 409 when two projects' fixtures claim one app id or access token.",
        ok: listSchema("projects", ref("Project")),
        errors: [409],
      }),
    },
    "/__mock/projects": {
      get: operation("projects", { summary: "All projects", ok: listSchema("projects", ref("Project")) }),
      post: operation("projects", {
        summary: "Create an isolated project",
        description:
          "A project document in the fixture format (project id and API key credentials are generated when absent), " +
          "or {template} naming a loaded project whose fixtures are copied under a fresh id and fresh keys. " +
          "409 limit_exceeded when the server holds PROJECT_LIMIT projects.",
        body: { oneOf: [ref("TemplateRequest"), ref("PostedProjectDocument")] },
        status: 201,
        ok: ref("CreatedProject"),
        errors: [404, 409],
      }),
    },
    "/__mock/projects/{projectId}": {
      get: operation("projects", { summary: "One project", params: P, ok: ref("Project") }),
      delete: operation("projects", {
        summary: "Remove a project and everything in it",
        params: P,
        ok: ref("Deleted"),
      }),
    },
    "/__mock/projects/{projectId}/reset": {
      post: operation("projects", {
        summary: "The project back to its fixtures",
        description:
          "409 when one of its fixture keys now belongs to another project (deleted here, created there).",
        params: P,
        ok: ref("Project"),
        errors: [409],
      }),
    },
    "/__mock/projects/{projectId}/state": {
      get: operation("state", {
        summary: "Export the project's whole state in the fixture format",
        params: P,
        ok: ref("ProjectDocument"),
      }),
      put: operation("state", {
        summary:
          "Replace the project's whole state (validated like fixtures; a bad document changes nothing)",
        params: P,
        body: ref("ProjectDocumentInput"),
        ok: ref("ProjectDocument"),
        errors: [409],
      }),
    },
  };
}

export function clockAndKeyPaths(): Record<string, Schema> {
  const keyAction = (summary: string) => ({
    post: operation("keys", { summary, params: KEY, ok: ref("ApiKey") }),
  });
  return {
    "/__mock/projects/{projectId}/clock": {
      get: operation("clock", { summary: "The project's clock", params: P, ok: ref("Clock") }),
      post: operation("clock", {
        summary: "Move or set the project's clock",
        params: P,
        body: ref("MoveClock"),
        ok: ref("Clock"),
      }),
    },
    "/__mock/projects/{projectId}/keys": {
      get: operation("keys", {
        summary: "The project's API keys",
        params: P,
        ok: listSchema("api_keys", ref("ApiKey")),
      }),
      post: operation("keys", {
        summary: "Create an API key (credentials generated when absent)",
        description: "409 when the app id is taken, or limit_exceeded when the project holds KEY_LIMIT keys.",
        params: P,
        body: ref("NewApiKey"),
        status: 201,
        ok: ref("ApiKey"),
        errors: [409],
      }),
    },
    "/__mock/projects/{projectId}/keys/{appId}": {
      get: operation("keys", { summary: "One API key", params: KEY, ok: ref("ApiKey") }),
      delete: operation("keys", {
        summary: "Delete a key: refused at once, its tokens after the grace period",
        params: KEY,
        ok: ref("Deleted"),
      }),
    },
    "/__mock/projects/{projectId}/keys/{appId}/block": keyAction(
      "Block a key: refused at once, its tokens after the grace period",
    ),
    "/__mock/projects/{projectId}/keys/{appId}/unblock": keyAction("Unblock a key"),
    "/__mock/projects/{projectId}/keys/{appId}/regenerate": keyAction(
      "New secret: the old one is refused at once, tokens keep working",
    ),
  };
}

export function journalAndFaultPaths(): Record<string, Schema> {
  return {
    "/__mock/projects/{projectId}/requests": {
      get: operation("journal", {
        summary: "The request journal, oldest first",
        params: P,
        query: [
          query("method", "Comma-separated methods"),
          query("path", "Exact path or pattern ({name} or * for one segment, ** for anything)"),
          query("status", "Comma-separated statuses or classes (404, 4xx)"),
          query("since", "From this moment on the project's clock (ISO 8601)", {
            type: "string",
            format: "date-time",
          }),
          query("until", "Up to this moment on the project's clock (ISO 8601)", {
            type: "string",
            format: "date-time",
          }),
          query("limit", "Only the newest this many", { type: "integer", minimum: 1 }),
        ],
        ok: listSchema("requests", ref("JournalEntry")),
        errors: [400],
      }),
      delete: operation("journal", { summary: "Empty the journal", params: P, ok: ref("Cleared") }),
    },
    "/__mock/projects/{projectId}/faults": {
      get: operation("faults", {
        summary: "The project's fault rules",
        params: P,
        ok: listSchema("faults", ref("Fault")),
      }),
      post: operation("faults", {
        summary: "Add a fault rule",
        description: "409 limit_exceeded when the project holds FAULT_LIMIT rules.",
        params: P,
        body: ref("NewFault"),
        status: 201,
        ok: ref("Fault"),
        errors: [409],
      }),
      delete: operation("faults", { summary: "Delete every fault rule", params: P, ok: ref("Cleared") }),
    },
    "/__mock/projects/{projectId}/faults/{faultId}": {
      get: operation("faults", { summary: "One fault rule", params: [...P, "faultId"], ok: ref("Fault") }),
      delete: operation("faults", {
        summary: "Delete one fault rule",
        params: [...P, "faultId"],
        ok: ref("Deleted"),
      }),
    },
  };
}

export function settingsPaths(): Record<string, Schema> {
  return {
    "/__mock/projects/{projectId}/settings": {
      get: operation("settings", {
        summary: "The project's settings and those in force",
        params: P,
        ok: ref("Settings"),
      }),
      put: operation("settings", {
        summary: "Replace the project's settings",
        params: P,
        body: ref("ProjectSettings"),
        ok: ref("Settings"),
      }),
      patch: operation("settings", {
        summary: "Change some settings",
        params: P,
        body: ref("SettingsPatch"),
        ok: ref("Settings"),
      }),
    },
  };
}

import { newApiKeySchema } from "../../domain/auth/api-key.js";
import { blockKey, createKey, deleteKey, regenerateKey, unblockKey } from "../../domain/auth/keys.js";
import type { Project } from "../../domain/projects/project.js";
import { apiKeyAnswer, deletedAnswer, listSchema } from "./answers.js";
import { type ControlCall, type ControlRoute, row } from "./route-table.js";
import { keyView, listOf } from "./shapes.js";

/** A missing body is an empty one: every field of a new key has a default. */
export const newKeyBody = newApiKeySchema.prefault({});

const KEY = "/projects/{projectId}/keys/{appId}";
type KeyCall = ControlCall<unknown, unknown, Project>;
const appIdOf = (call: KeyCall) => String(call.params.appId);

/** POST .../keys/{appId}/{action}: answers the key as it is after the action. */
function keyAction(action: string, summary: string, act: (call: KeyCall) => Parameters<typeof keyView>[0]) {
  return row({
    method: "POST",
    path: `${KEY}/${action}`,
    tag: "keys",
    summary,
    output: apiKeyAnswer,
    handle: (call) => keyView(act(call)),
  });
}

/**
 * API key lifecycle as the spec's token rules describe it: a blocked or deleted key is refused at once and its
 * tokens after the project's grace period (on the project's clock); a regenerated secret replaces the old one at
 * once and leaves the tokens working.
 */
export const keyRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/keys",
    tag: "keys",
    summary: "The project's API keys",
    output: listSchema("api_keys", apiKeyAnswer),
    handle: (call) => listOf("api_keys", call.project.apiKeys.list().map(keyView)),
  }),
  row({
    method: "POST",
    path: "/projects/{projectId}/keys",
    tag: "keys",
    summary: "Create an API key (credentials generated when absent)",
    description:
      "409 when the app id is taken, or limit_exceeded when the project holds LOYALTY_MOCK_KEY_LIMIT keys.",
    body: newKeyBody,
    status: 201,
    output: apiKeyAnswer,
    errors: { 409: ["conflict", "limit_exceeded"] },
    handle: (call) => keyView(createKey(call.deps.registry, call.project, call.body)),
  }),
  row({
    method: "GET",
    path: KEY,
    tag: "keys",
    summary: "One API key",
    output: apiKeyAnswer,
    handle: (call) => keyView(call.project.apiKeys.get(appIdOf(call))),
  }),
  row({
    method: "DELETE",
    path: KEY,
    tag: "keys",
    summary: "Delete a key: refused at once, its tokens after the grace period",
    output: deletedAnswer,
    handle: (call) => {
      deleteKey(call.deps.registry, call.project, appIdOf(call));
      return { object: "api_key", app_id: appIdOf(call), deleted: true };
    },
  }),
  keyAction("block", "Block a key: refused at once, its tokens after the grace period", (call) =>
    blockKey(call.deps.registry, call.project, appIdOf(call)),
  ),
  keyAction("unblock", "Unblock a key", (call) => unblockKey(call.project, appIdOf(call))),
  keyAction("regenerate", "New secret: the old one is refused at once, tokens keep working", (call) =>
    regenerateKey(call.project, appIdOf(call)),
  ),
];

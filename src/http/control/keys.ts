import type { Router } from "express";
import { z } from "zod";
import { newApiKeySchema } from "../../domain/auth/api-key.js";
import { blockKey, createKey, deleteKey, regenerateKey, unblockKey } from "../../domain/auth/keys.js";
import { jsonBody } from "../body.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { created, keyView, listOf } from "./shapes.js";

const newKey = z.object({
  params: z.object({ projectId: z.string() }),
  body: newApiKeySchema.prefault({}),
});

/**
 * API key lifecycle as the spec's token rules describe it: a blocked or deleted key is refused at once and its
 * tokens after the project's grace period (on the project's clock); a regenerated secret replaces the old one at
 * once and leaves the tokens working.
 */
export function keyRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  const project = (req: { params: Record<string, string | string[] | undefined> }) =>
    registry.get(String(req.params.projectId));
  const appId = (req: { params: Record<string, string | string[] | undefined> }) => String(req.params.appId);

  route(router, "/projects/:projectId/keys", {
    get: [(req, res) => void res.json(listOf("api_keys", project(req).apiKeys.list().map(keyView)))],
    post: [
      ...jsonBody(bodyLimit),
      controlInput(newKey),
      (req, res) => {
        const { body } = getInput<z.output<typeof newKey>>(res);
        created(res, keyView(createKey(registry, project(req), body)));
      },
    ],
  });

  route(router, "/projects/:projectId/keys/:appId", {
    get: [(req, res) => void res.json(keyView(project(req).apiKeys.get(appId(req))))],
    delete: [
      (req, res) => {
        deleteKey(registry, project(req), appId(req));
        res.json({ object: "api_key", app_id: appId(req), deleted: true });
      },
    ],
  });

  route(router, "/projects/:projectId/keys/:appId/block", {
    post: [(req, res) => void res.json(keyView(blockKey(registry, project(req), appId(req))))],
  });
  route(router, "/projects/:projectId/keys/:appId/unblock", {
    post: [(req, res) => void res.json(keyView(unblockKey(project(req), appId(req))))],
  });
  route(router, "/projects/:projectId/keys/:appId/regenerate", {
    post: [(req, res) => void res.json(keyView(regenerateKey(project(req), appId(req))))],
  });
}

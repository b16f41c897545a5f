import { Router } from "express";
import { issueToken } from "../../domain/auth/tokens.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { requireAuth } from "../authenticate.js";
import { formBody } from "../body.js";
import { getAuth } from "../context.js";
import { route } from "../routes.js";
import { mountEvents } from "./events.js";
import { mountMembers } from "./members.js";

export interface RouterDeps {
  registry: ProjectRegistry;
  bodyLimit: number;
}

/** The v1 operations: OAuth tokens and locations here, loyalty members and custom events in their own files. */
export function v1Router({ registry, bodyLimit }: RouterDeps): Router {
  const router = Router();

  route(router, "/oauth/token", {
    post: [
      requireAuth(registry, "generateToken"),
      ...formBody(bodyLimit),
      (req, res) => {
        const { project, key } = getAuth(res);
        // requireAuth for generateToken accepts the key pair only, so the key is always there.
        if (!key) throw new Error("token endpoint reached without a key pair");
        res.json(issueToken(registry, project, key, req.body ?? {}));
      },
    ],
  });

  route(router, "/locations/:locationId", {
    get: [
      requireAuth(registry, "getLocation"),
      (req, res) => {
        const { project } = getAuth(res);
        res.json(project.locations.get(String(req.params.locationId)));
      },
    ],
  });

  mountMembers(router, registry, bodyLimit);
  mountEvents(router, registry, bodyLimit);
  return router;
}

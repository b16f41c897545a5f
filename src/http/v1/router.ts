import type { IRouter } from "express";
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

/**
 * Where a version's routes go: a router (the app's own) and the version's path prefix. Each version keeps its own
 * table of routes, but they are declared on the app's router under `/v1` and `/v2` rather than in sub-routers
 * mounted there: a mounted router is a second dispatch per request (its own matching, URL rewriting and
 * restoring), measured at several per cent of a request's time (README "Performance").
 */
export interface Mount {
  router: IRouter;
  prefix: string;
}

/** The v1 operations: OAuth tokens and locations here, loyalty members and custom events in their own files. */
export function mountV1({ router, prefix }: Mount, { registry, bodyLimit }: RouterDeps): void {
  route(router, `${prefix}/oauth/token`, {
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

  route(router, `${prefix}/locations/:locationId`, {
    get: [
      requireAuth(registry, "getLocation"),
      (req, res) => {
        const { project } = getAuth(res);
        res.json(project.locations.get(String(req.params.locationId)));
      },
    ],
  });

  mountMembers({ router, prefix }, registry, bodyLimit);
  mountEvents({ router, prefix }, registry, bodyLimit);
}

import type { Router } from "express";
import { z } from "zod";
import { jsonBody } from "../body.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { controlInput } from "./input.js";
import { clockView } from "./shapes.js";

/** Ten years either way: far enough for any expiry or validity window, near enough to stay a valid Date. */
const MAX_MOVE_SECONDS = 10 * 366 * 86_400;

const moveClock = z.object({
  params: z.object({ projectId: z.string() }),
  query: z.object({}),
  body: z
    .strictObject({
      advance_seconds: z.number().min(-MAX_MOVE_SECONDS).max(MAX_MOVE_SECONDS).optional(),
      set: z.iso.datetime({ offset: true }).optional(),
    })
    .refine((body) => (body.advance_seconds === undefined) !== (body.set === undefined), {
      message: "must have exactly one of advance_seconds and set",
    }),
});

/**
 * Each project's own clock. Token expiry, key grace periods, timestamps of new records, validity windows and rate
 * limit windows all read it, so a test moves time for its project only and never waits.
 */
export function clockRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  route(router, "/projects/:projectId/clock", {
    get: [(req, res) => void res.json(clockView(registry.get(String(req.params.projectId))))],
    post: [
      ...jsonBody(bodyLimit),
      controlInput(moveClock),
      (_req, res) => {
        const { params, body } = getInput<z.output<typeof moveClock>>(res);
        const project = registry.get(params.projectId);
        if (body.advance_seconds !== undefined) project.clock.advance(body.advance_seconds);
        else if (body.set !== undefined) project.clock.set(body.set);
        res.json(clockView(project));
      },
    ],
  });
}

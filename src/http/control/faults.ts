import type { Router } from "express";
import { z } from "zod";
import type { Fault } from "../../emulation/faults/fault-rules.js";
import { jsonBody } from "../body.js";
import { getInput } from "../context.js";
import { route } from "../route.js";
import type { ControlDeps } from "./deps.js";
import { faultInputSchema } from "./fault-input.js";
import { controlInput } from "./input.js";
import { created, listOf } from "./shapes.js";

const newFault = z.object({
  params: z.object({ projectId: z.string() }),
  body: faultInputSchema,
});

const asObject = (fault: Fault) => ({ object: "fault" as const, ...fault });

/** Fault rules of a project: add one, list them, delete one or all. See domain/faults for what each action does. */
export function faultRoutes(router: Router, { registry, bodyLimit }: ControlDeps): void {
  route(router, "/projects/:projectId/faults", {
    get: [
      (req, res) => {
        // Each rule as GET .../faults/{id} shows it, as the control API's document has it.
        const faults = registry.get(String(req.params.projectId)).faults.list();
        res.json(listOf("faults", faults.map(asObject)));
      },
    ],
    post: [
      ...jsonBody(bodyLimit),
      controlInput(newFault),
      (_req, res) => {
        const { params, body } = getInput<z.output<typeof newFault>>(res);
        const project = registry.get(params.projectId);
        const limit = registry.defaults.caps.faultsPerProject;
        created(res, { object: "fault", ...project.faults.add(body, project.clock.iso(), limit) });
      },
    ],
    delete: [
      (req, res) => {
        const deleted = registry.get(String(req.params.projectId)).faults.clear();
        res.json({ object: "faults", deleted });
      },
    ],
  });

  route(router, "/projects/:projectId/faults/:faultId", {
    get: [
      (req, res) => {
        const fault = registry.get(String(req.params.projectId)).faults.get(String(req.params.faultId));
        res.json({ object: "fault", ...fault });
      },
    ],
    delete: [
      (req, res) => {
        const fault = registry.get(String(req.params.projectId)).faults.remove(String(req.params.faultId));
        res.json({ object: "fault", id: fault.id, deleted: true });
      },
    ],
  });
}

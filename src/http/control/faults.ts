import type { Fault } from "../../emulation/faults/fault-rules.js";
import { clearedAnswer, deletedAnswer, faultAnswer, listSchema } from "./answers.js";
import { faultInputSchema } from "./fault-input.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";

const asObject = (fault: Fault) => ({ object: "fault" as const, ...fault });
const FAULT = "/projects/{projectId}/faults/{faultId}";

/** Fault rules of a project: add one, list them, delete one or all. See domain/faults for what each action does. */
export const faultRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/faults",
    tag: "faults",
    summary: "The project's fault rules",
    output: listSchema("faults", faultAnswer),
    // Each rule as GET .../faults/{id} shows it.
    handle: ({ project }) => listOf("faults", project.faults.list().map(asObject)),
  }),
  row({
    method: "POST",
    path: "/projects/{projectId}/faults",
    tag: "faults",
    summary: "Add a fault rule",
    description: "409 limit_exceeded when the project holds LOYALTY_MOCK_FAULT_LIMIT rules.",
    body: faultInputSchema,
    status: 201,
    output: faultAnswer,
    errors: { 409: ["limit_exceeded"] },
    handle: ({ deps: { registry }, body, project }) => {
      const limit = registry.defaults.caps.faultsPerProject;
      return { object: "fault", ...project.faults.add(body, project.clock.iso(), limit, project.ids) };
    },
  }),
  row({
    method: "DELETE",
    path: "/projects/{projectId}/faults",
    tag: "faults",
    summary: "Delete every fault rule",
    output: clearedAnswer,
    handle: ({ project }) => ({
      object: "faults",
      deleted: project.faults.clear(),
    }),
  }),
  row({
    method: "GET",
    path: FAULT,
    tag: "faults",
    summary: "One fault rule",
    output: faultAnswer,
    handle: ({ params, project }) => ({
      object: "fault",
      ...project.faults.get(String(params.faultId)),
    }),
  }),
  row({
    method: "DELETE",
    path: FAULT,
    tag: "faults",
    summary: "Delete one fault rule",
    output: deletedAnswer,
    handle: ({ params, project }) => {
      const fault = project.faults.remove(String(params.faultId));
      return { object: "fault", id: fault.id, deleted: true };
    },
  }),
];

import { z } from "zod";
import type { Project } from "../../domain/projects/project.js";
import { COLLECTION_NAMES } from "../../domain/projects/project-document.js";
import { SNAPSHOT_NAME, type Snapshot } from "../../domain/projects/snapshots.js";
import { dateTime, deletedAnswer, listSchema, projectAnswer } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf, projectView } from "./shapes.js";

const int = z.int();

export const snapshotAnswer = z.strictObject({
  object: z.literal("snapshot"),
  name: z.string(),
  project_id: z.string(),
  saved_at: dateTime.describe("When it was saved, by the server's clock."),
  clock: z
    .strictObject({ now: dateTime, frozen: z.boolean() })
    .describe("The project's clock as it was saved: a restore puts it back at `now`, frozen or running."),
  counts: z.record(z.string(), int).describe("Records the snapshot holds, by collection."),
});

export const saveSnapshotBody = z.strictObject({
  name: z
    .string()
    .regex(SNAPSHOT_NAME, "must be 1-63 letters, digits, _, - or ., starting with a letter or digit")
    .describe("What to call it: a path segment, such as start"),
  replace: z
    .boolean()
    .default(false)
    .describe("true: save over a snapshot of that name; otherwise a name in use is 409 conflict"),
});

function snapshotView(projectId: string, snapshot: Snapshot) {
  const { document } = snapshot;
  return {
    object: "snapshot" as const,
    name: snapshot.name,
    project_id: projectId,
    saved_at: new Date(snapshot.savedAt).toISOString(),
    clock: {
      now: new Date(snapshot.clockAt).toISOString(),
      frozen: document.project.clock.frozen_at !== undefined,
    },
    counts: Object.fromEntries(COLLECTION_NAMES.map((c) => [c, document[c].length])),
  };
}

const listOfProject = (project: Project, snapshots: readonly Snapshot[]) =>
  listOf(
    "snapshots",
    snapshots.map((snapshot) => snapshotView(project.id, snapshot)),
  );

const PATH = "/projects/{projectId}/snapshots";

/**
 * Named snapshots: a project's state saved under a name and put back exactly, clock included, in one call (a demo's
 * starting point, shown again and again). Kept in the state file when there is one; LOYALTY_MOCK_SNAPSHOT_LIMIT
 * per project.
 */
export const snapshotRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: PATH,
    tag: "snapshots",
    summary: "The project's named snapshots, oldest first",
    output: listSchema("snapshots", snapshotAnswer),
    handle: ({ deps, project }) => listOfProject(project, deps.registry.snapshots.list(project.id)),
  }),
  row({
    method: "POST",
    path: PATH,
    tag: "snapshots",
    summary: "Save the project's whole state under a name",
    description:
      "Records, settings, seed and clock, as an export holds them; not the journal, fault rules or webhook " +
      "deliveries. 409 conflict when the name is in use (unless replace), 409 limit_exceeded when the project " +
      "holds LOYALTY_MOCK_SNAPSHOT_LIMIT snapshots.",
    body: saveSnapshotBody,
    status: 201,
    output: snapshotAnswer,
    errors: { 400: ["invalid_payload"], 409: ["conflict", "limit_exceeded"] },
    handle: async ({ deps: { registry }, body, project }) => {
      const snapshot = await registry.saveSnapshot(project.id, body.name, body.replace);
      return snapshotView(project.id, snapshot);
    },
  }),
  row({
    method: "POST",
    path: `${PATH}/{name}/restore`,
    tag: "snapshots",
    summary: "Put the project back as the snapshot holds it, clock included",
    description:
      "Its records, settings and clock as they were saved (a running clock runs on from the moment it showed); " +
      "the journal, fault rules and webhook deliveries start empty, as after a reset. A seeded project draws past " +
      "every value the snapshot holds. 409 when one of its keys now belongs to another project.",
    output: projectAnswer,
    errors: { 409: ["conflict"] },
    handle: async ({ deps, params, project }) =>
      projectView(await deps.registry.restoreSnapshotInSlices(project.id, String(params.name))),
  }),
  row({
    method: "DELETE",
    path: `${PATH}/{name}`,
    tag: "snapshots",
    summary: "Remove a named snapshot",
    output: deletedAnswer,
    handle: ({ deps, params, project }) => {
      const name = String(params.name);
      deps.registry.snapshots.delete(project.id, name);
      return { object: "snapshot", id: name, deleted: true };
    },
  }),
];

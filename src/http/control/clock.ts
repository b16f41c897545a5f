import { z } from "zod";
import { invalidPayload } from "../../domain/errors.js";
import { CLOCK_RANGE, clockRangeProblem } from "../../platform/clock.js";
import { clockAnswer } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { clockView } from "./shapes.js";

/** Ten years either way: far enough for any expiry or validity window, near enough to stay a valid Date. */
const MAX_MOVE_SECONDS = 10 * 366 * 86_400;

export const moveClockBody = z
  .strictObject({
    advance_seconds: z
      .number()
      .min(-MAX_MOVE_SECONDS)
      .max(MAX_MOVE_SECONDS)
      .optional()
      .describe(
        `Seconds to move the clock; negative moves it back. 400 when it would leave ${CLOCK_RANGE}, the instants a ` +
          "project clock shows.",
      ),
    set: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(`The moment the project's clock shows from now on, from ${CLOCK_RANGE}.`),
    freeze: z
      .boolean()
      .optional()
      .describe(
        "true: the clock stands still (after any move) until moved or unfrozen; false: it runs again from the " +
          "moment it shows. A frozen clock stays frozen across restarts with a state file.",
      ),
  })
  .refine(
    (body) =>
      (body.advance_seconds === undefined) !== (body.set === undefined) ||
      (body.freeze !== undefined && body.advance_seconds === undefined),
    { message: "must have exactly one of advance_seconds and set" },
  )
  // What the refinement says, in JSON Schema: at most one of the moves, and a move or a freeze.
  .meta({
    anyOf: [{ required: ["advance_seconds"] }, { required: ["set"] }, { required: ["freeze"] }],
    not: { required: ["advance_seconds", "set"] },
  });

/**
 * Each project's own clock, running or frozen (LOYALTY_MOCK_FREEZE_CLOCK freezes every project's at start). Token
 * expiry, key grace periods, timestamps of new records, validity windows and rate limit windows all read it, so a
 * test moves time for its project only and never waits.
 */
export const clockRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/clock",
    tag: "clock",
    summary: "The project's clock",
    output: clockAnswer,
    handle: ({ project }) => clockView(project),
  }),
  row({
    method: "POST",
    path: "/projects/{projectId}/clock",
    tag: "clock",
    summary: "Move or set the project's clock",
    body: moveClockBody,
    output: clockAnswer,
    handle: ({ body, project }) => {
      // Checked before anything moves: a clock past the range would stamp (and store) what no state file holds.
      const after =
        body.advance_seconds !== undefined
          ? project.clock.now() + body.advance_seconds * 1000
          : body.set !== undefined
            ? Date.parse(body.set)
            : project.clock.now();
      const problem = clockRangeProblem(after);
      if (problem !== undefined) throw invalidPayload(problem);
      // The move happens while the clock stands still, so `{set, freeze: true}` stops it exactly at `set` and
      // `{set, freeze: false}` lets it run from exactly `set`: no millisecond of the root clock slips in between.
      if (body.freeze === true) project.clock.freeze();
      if (body.advance_seconds !== undefined) project.clock.advance(body.advance_seconds);
      else if (body.set !== undefined) project.clock.set(body.set);
      if (body.freeze === false) project.clock.unfreeze();
      return clockView(project);
    },
  }),
];

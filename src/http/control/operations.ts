import { z } from "zod";
import { OPERATIONS } from "../operations/table.js";
import { HTTP_METHODS } from "../route.js";
import { listSchema } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";

export const operationAnswer = z.strictObject({
  name: z.string().describe("The operation's name in the emulator's table (addMember, createTier, ...)"),
  title: z.string(),
  method: z.enum(HTTP_METHODS),
  path: z.string().describe("As the contract writes it, {name} for a parameter; a fault rule's path pattern"),
});

/** The operations, read from the table they are mounted from: the dashboard's filters and faults. */
export const operationRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/operations",
    tag: "server",
    summary: "The operations the emulator answers, in the journal's and fault rules' spelling",
    output: listSchema("operations", operationAnswer),
    handle: () =>
      listOf(
        "operations",
        OPERATIONS.map(({ name, title, method, path }) => ({ name, title, method, path })),
      ),
  }),
];

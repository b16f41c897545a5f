import { z } from "zod";
import { OPERATIONS, type OperationName } from "../operations/table.js";
import { listSchema } from "./answers.js";
import { type ControlRoute, row } from "./route-table.js";
import { listOf } from "./shapes.js";

/** What the dashboard calls each operation; typed by the table's names, so a new row cannot go without one. */
const TITLES: Record<OperationName, string> = {
  generateToken: "OAuth token",
  addMember: "Assign a loyalty card",
  getLocation: "Get a location",
  trackEvent: "Custom event",
  createTier: "Create a tier",
  deleteIncentive: "Delete an incentive",
};

export const operationAnswer = z.strictObject({
  name: z.string().describe("The operation's name in the emulator's table (addMember, createTier, ...)"),
  title: z.string(),
  method: z.enum(["GET", "POST", "DELETE"]),
  path: z.string().describe("As the contract writes it, {name} for a parameter; a fault rule's path pattern"),
});

/** The six operations, read from the table the routers are mounted from: the dashboard's filters and faults. */
export const operationRoutes: readonly ControlRoute[] = [
  row({
    method: "get",
    path: "/operations",
    tag: "server",
    summary: "The operations the emulator answers, in the journal's and fault rules' spelling",
    output: listSchema("operations", operationAnswer),
    handle: () =>
      listOf(
        "operations",
        OPERATIONS.map(({ name, method, path }) => ({ name, title: TITLES[name], method, path })),
      ),
  }),
];

import { ZodError, type z } from "zod";
import { InputError } from "../errors/http-errors.js";

/**
 * Parses a body with a schema chosen after looking at it (POST /projects: a template request or a document),
 * reporting problems as the table's edge validation does (mount.ts): 400 invalid_payload naming `body.<path>`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ ...issue, path: ["body", ...issue.path] }));
  throw new InputError(new ZodError(issues), { body });
}

import type { RequestHandler } from "express";
import { ZodError, type z } from "zod";
import { setInput } from "../context.js";
import { InputError } from "../errors.js";

/**
 * The control API's edge validation: like validate(), but over `{ params, query, body }`, since its list views
 * and the journal take filters in the query string. Failures become 400 invalid_payload naming the parameter.
 */
export function controlInput<S extends z.ZodType>(schema: S): RequestHandler {
  return (req, res, next) => {
    const input = { params: req.params, query: req.query, body: req.body };
    const result = schema.safeParse(input);
    if (!result.success) throw new InputError(result.error, input);
    setInput(res, result.data);
    next();
  };
}

/** Parses a body with a schema chosen after looking at it, reporting problems like controlInput does. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ ...issue, path: ["body", ...issue.path] }));
  throw new InputError(new ZodError(issues), { body });
}

import type { RequestHandler } from "express";
import { ZodError, type z } from "zod";
import { setInput } from "../context.js";
import { InputError } from "../errors/http-errors.js";

/**
 * The one input parser: a route's input (`{ params, body }` for an operation, with `query` for the control API)
 * parsed once, at the edge, with the route's zod schema. A failure is 400 invalid_payload with the property and
 * rule in `details`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new InputError(result.error, input);
  return result.data;
}

/**
 * A body parsed with a schema chosen after looking at it (POST /__mock/projects: a template request or a
 * document): the same parse, its problems named `body.<path>` as when the schema is the route's.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw bodyRefusal(result.error.issues, body);
}

/** The refusal of a body whose parse found `issues` (paths from the body's root), as the one parser words it. */
export function bodyRefusal(issues: readonly z.core.$ZodIssue[], body: unknown): InputError {
  return new InputError(new ZodError(issues.map((issue) => ({ ...issue, path: ["body", ...issue.path] }))), {
    body,
  });
}

/** The operations' parse: the parsed value is what the handler gets (context.ts). */
export function validate<S extends z.ZodType>(schema: S): RequestHandler {
  return (req, res, next) => {
    const input = { params: req.params, body: req.body };
    setInput(res, parseInput(schema, input));
    next();
  };
}

import type { RequestHandler } from "express";
import type { z } from "zod";
import { setInput } from "../context.js";
import { InputError } from "../errors/http-errors.js";

/**
 * Parses a route's input once, at the edge, with the operation's zod schema: `{ params, body }`. The parsed
 * value is what the handler gets; a failure becomes 400 invalid_payload with the property and rule in `details`.
 */
export function validate<S extends z.ZodType>(schema: S): RequestHandler {
  return (req, res, next) => {
    const input = { params: req.params, body: req.body };
    const result = schema.safeParse(input);
    if (!result.success) throw new InputError(result.error, input);
    setInput(res, result.data);
    next();
  };
}

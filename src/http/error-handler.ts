import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";
import { ApiError, invalidPayload } from "../domain/errors.js";
import { describeIssue } from "../platform/validation-messages.js";
import { requestIdOf } from "./context.js";
import {
  fromHttpStatus,
  InputError,
  internalError,
  payloadTooLarge,
  routeNotFound,
  sendError,
  tooManyFormFields,
} from "./errors/http-errors.js";
import { FORM_FIELD_LIMIT } from "./input/body.js";
import { notEmulated, realOperationsFor } from "./operations/real-operations.js";

interface HttpError extends Error {
  status?: number;
  statusCode?: number;
  type?: string;
  limit?: number;
}

/** Errors from Express, its router and body-parser, in the service's words. */
function fromFrameworkError(error: HttpError, bodyLimit: number): ApiError {
  switch (error.type) {
    case "entity.parse.failed":
      return invalidPayload(`Request body is not valid JSON: ${error.message}`);
    case "entity.too.large":
      return payloadTooLarge(error.limit ?? bodyLimit);
    case "parameters.too.many":
      return tooManyFormFields(FORM_FIELD_LIMIT);
    case "charset.unsupported":
    case "encoding.unsupported":
      return fromHttpStatus(415, error.message);
    case "request.aborted":
    case "request.size.invalid":
      return fromHttpStatus(400, error.message);
  }
  const status = error.status ?? error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    // The router's own 400 is a path segment it could not percent-decode.
    const details =
      error instanceof URIError || /decode/i.test(error.message)
        ? "The request path is not validly percent-encoded"
        : error.message;
    return fromHttpStatus(status, details);
  }
  return internalError();
}

/** validate() parses `{ params, body }` (and the control API's `query`); details name the property or parameter. */
function fromInputError(error: InputError): ApiError {
  const issue = error.zodError.issues[0];
  if (!issue) return invalidPayload("Request is invalid");
  const [section, ...rest] = issue.path;
  const input = error.input as { params?: unknown; body?: unknown };
  if (section === "params" || section === "query") {
    const name = String(rest[0] ?? "");
    // One parameter, however deep the issue sits in its value (`status=200,abc`): name the parameter only.
    const sentence = describeIssue({ ...issue, path: rest.slice(1) }, undefined).replace(
      /^(Request body|Property \S+) /,
      "",
    );
    // The control API validates query parameters too; an unknown one is named like an unknown property.
    if (issue.code === "unrecognized_keys")
      return invalidPayload(`Query parameter ${issue.keys.join(", ")} is not allowed`);
    return invalidPayload(`${section === "params" ? "Path" : "Query"} parameter ${name} ${sentence}`);
  }
  return invalidPayload(describeIssue({ ...issue, path: rest } as typeof issue, input.body));
}

function toApiError(error: unknown, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof InputError) return fromInputError(error);
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return invalidPayload(issue ? describeIssue(issue, undefined) : "Request is invalid");
  }
  if (error instanceof Error) return fromFrameworkError(error as HttpError, bodyLimit);
  return internalError();
}

/**
 * The one place errors become responses. Anything not raised on purpose is a 500 in the service's shape, logged
 * with its stack by the request log (res.err); the client never sees a stack or an HTML page.
 */
export function errorHandler(bodyLimit: number): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = toApiError(error, bodyLimit);
    if (apiError.status >= 500) res.err = error instanceof Error ? error : new Error(String(error));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, apiError, requestIdOf(req));
  };
}

/** Anything no route claimed: an operation of the real service we do not emulate (501), or 404. */
export const unknownRoute: RequestHandler = (req) => {
  const real = realOperationsFor(req);
  if (real.length > 0) throw notEmulated(real);
  throw routeNotFound(req.method, req.path);
};

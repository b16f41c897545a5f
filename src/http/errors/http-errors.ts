import type { Response } from "express";
import type { ZodError } from "zod";
import { ApiError, apiError, ERRORS } from "../../domain/errors.js";

/**
 * The errors only the HTTP layer meets (a path or method the API lacks, a body or head it cannot read, a client
 * too slow, the state file behind a change), and errorBody(), the one function that writes the service's error
 * object. Their status and message texts live with the rest in the domain's ERRORS.
 */

/** The service's error object, as every error answer carries it. */
export interface ErrorBody {
  code: number;
  /** Absent where the service documents the error without one (the 405). */
  key?: string;
  message: string;
  details?: string;
  request_id?: string;
  resource_id?: string;
  resource_type?: string;
  [extra: string]: unknown;
}

/** The wire form of an error, in the service's field order. */
export function errorBody(error: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody = error.keyless
    ? { code: error.status, message: error.message }
    : { code: error.status, key: error.key, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  body.request_id = requestId;
  if (error.resourceId !== undefined) body.resource_id = error.resourceId;
  if (error.resourceType !== undefined) body.resource_type = error.resourceType;
  if (error.extra) Object.assign(body, error.extra);
  return body;
}

/** Writes an ApiError as the service's error object: the one error handler's answer, and a fault rule's. */
export function sendError(res: Response, error: ApiError, requestId: string): void {
  if (error.headers) res.set(error.headers);
  res.status(error.status).json(errorBody(error, requestId));
}

export function routeNotFound(method: string, path: string): ApiError {
  return apiError("not_found", {
    details: `Cannot ${method} ${path}: no such endpoint`,
  });
}

/** "A or B", "A, B or C": how the documented 405 lists the methods (`Did you mean GET or POST?`). */
export function either(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/**
 * The documented 405: `PUT is not supported by this endpoint. Did you mean GET or POST?` (errors.mdx), and like the
 * documentation's example without a `key` (docs/fidelity.md, "Messages the documentation does not give"). HEAD is in the Allow
 * header, not in the hint: it is GET without the body.
 */
export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return apiError("method_not_allowed", {
    keyless: true,
    details: `${method} is not supported by this endpoint. Did you mean ${either(allowed.filter((m) => m !== "HEAD"))}?`,
    headers: { Allow: allowed.join(", ") },
  });
}

/** errors.mdx, 406: "unable to produce a response in a format specified by the Accept header". */
export function notAcceptable(accept: string): ApiError {
  return apiError("not_acceptable", {
    details: `The API answers in application/json only; Accept '${accept}' does not allow it`,
  });
}

export function unsupportedMediaType(contentType: string, expected: string): ApiError {
  return apiError("unsupported_media_type", {
    details: `Content-Type '${contentType}' is not supported; send ${expected}`,
  });
}

export function payloadTooLarge(limitBytes: number): ApiError {
  return apiError("query_too_large", {
    details: `Request body exceeds the limit of ${limitBytes} bytes`,
  });
}

export function tooManyFormFields(limit: number): ApiError {
  return apiError("query_too_large", {
    details: `The form body has more than ${limit} fields`,
  });
}

/** The request's head (request line and headers) is larger than the server reads. */
export function headersTooLarge(limitBytes: number): ApiError {
  return apiError("request_header_fields_too_large", {
    details: `The request line and headers exceed the limit of ${limitBytes} bytes`,
  });
}

/** A client that did not send its whole request in time (slow or stalled). */
export function requestTimeout(): ApiError {
  return apiError("request_timeout", {
    details: "The request was not received in full in time; the connection is closed",
  });
}

/** Bytes that are not an HTTP/1.1 request the server can read (bad request line, header, framing). */
export function badHttpRequest(reason: string): ApiError {
  return apiError("bad_request", {
    details: `The request is not valid HTTP: ${reason}`,
  });
}

export function expectationFailed(expectation: string): ApiError {
  return apiError("expectation_failed", {
    details: `Expect: ${expectation} is not supported; only 100-continue is`,
  });
}

export function internalError(): ApiError {
  return apiError("internal_error", {
    details: "The emulator hit an unexpected condition; the server log has the request id",
  });
}

/**
 * With STATE_SYNC=always a change is acknowledged only once it is on disk; when the save fails the change is
 * made (and will be saved by a later attempt) but not acknowledged.
 */
export function stateNotSaved(cause: unknown): ApiError {
  const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message ?? String(cause);
  return apiError("state_not_saved", {
    details: `The change could not be written to the state file (${reason}); the server keeps trying to save it`,
  });
}

/** Statuses that reach the error middleware from Express or its body parser carry no key of ours. */
export function fromHttpStatus(status: number, details: string): ApiError {
  switch (status) {
    case 400:
      return apiError("bad_request", { details });
    case 413:
      return apiError("query_too_large", { details });
    case 415:
      return apiError("unsupported_media_type", { details });
    default:
      return status >= 400 && status < 500
        ? new ApiError(status, "bad_request", ERRORS.bad_request[1], { details })
        : internalError();
  }
}

/** A zod failure carries the input it judged, so the details can tell a missing property from a wrong one. */
export class InputError extends Error {
  readonly zodError: ZodError;
  readonly input: unknown;

  constructor(zodError: ZodError, input: unknown) {
    super("invalid input");
    this.zodError = zodError;
    this.input = input;
  }
}

import { type DocumentProblem, describeProblem } from "../platform/documents.js";

/**
 * The service's error object and every error this emulator raises. Message texts live here and nowhere else so
 * that the wording the real service uses is written once (stripe-mock keeps its messages in one block the same way).
 */
export interface ErrorBody {
  code: number;
  key: string;
  message: string;
  details?: string;
  request_id?: string;
  resource_id?: string;
  resource_type?: string;
  [extra: string]: unknown;
}

export interface ApiErrorInit {
  details?: string;
  resourceId?: string;
  resourceType?: string;
  /** Fields the real service adds for some errors, such as `related_object_ids` on `resource_in_use`. */
  extra?: Record<string, unknown>;
  /** Response headers that belong to the error, such as `Allow` on 405. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly key: string;
  readonly details: string | undefined;
  readonly resourceId: string | undefined;
  readonly resourceType: string | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, key: string, message: string, init: ApiErrorInit = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.key = key;
    this.details = init.details;
    this.resourceId = init.resourceId;
    this.resourceType = init.resourceType;
    this.extra = init.extra;
    this.headers = init.headers;
  }

  toBody(requestId: string): ErrorBody {
    const body: ErrorBody = { code: this.status, key: this.key, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    body.request_id = requestId;
    if (this.resourceId !== undefined) body.resource_id = this.resourceId;
    if (this.resourceType !== undefined) body.resource_type = this.resourceType;
    if (this.extra) Object.assign(body, this.extra);
    return body;
  }
}

export type ResourceType =
  | "api_key"
  | "earning_rule"
  | "event_schema"
  | "event"
  | "segment"
  | "tier"
  | "campaign"
  | "voucher"
  | "customer"
  | "location"
  | "publication"
  | "vl_tier_structure"
  | "vl_tier"
  | "vl_incentive"
  | "vl_segment"
  | "fault";

export function notFound(resourceType: ResourceType, id: string): ApiError {
  return new ApiError(404, "not_found", "Resource not found", {
    details: `Cannot find ${resourceType} with id ${id}`,
    resourceId: id,
    resourceType,
  });
}

/** Loyalty v2: the structure already holds its most tiers (FIDELITY.md, "POST /v2/.../tiers"). */
export function tierLimitExceeded(structureId: string, limit: number): ApiError {
  return new ApiError(409, "tier_limit_exceeded", "Tier limit exceeded", {
    details: `Tier structure ${structureId} already has the maximum of ${limit} tiers`,
    resourceId: structureId,
    resourceType: "vl_tier_structure",
  });
}

/** Loyalty v2: a POINTS range that shares a point with a tier of the structure; names that tier. */
export function tierRangeOverlap(range: string, tier: { id: string; name: string; range: string }): ApiError {
  return new ApiError(403, "tier_range_overlap", "Tier range overlap", {
    details: `Points range ${range} overlaps tier ${tier.id} (${tier.name}, points ${tier.range})`,
    resourceId: tier.id,
    resourceType: "vl_tier",
  });
}

/** Loyalty v2: a resource other objects still point at cannot be deleted; the error lists them. */
export function resourceInUse(
  resource: { id: string; type: ResourceType; label: string },
  related: { type: string; label: string; ids: readonly string[] },
): ApiError {
  const plural = related.ids.length === 1 ? related.label : `${related.label}s`;
  return new ApiError(409, "resource_in_use", "Resource in use", {
    details: `${resource.label} ${resource.id} is used by ${plural} ${related.ids.join(", ")}`,
    resourceId: resource.id,
    resourceType: resource.type,
    extra: { related_object_ids: [...related.ids], related_object_type: related.type },
  });
}

export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError(404, "not_found", "Resource not found", {
    details: `Cannot ${method} ${path}: no such endpoint`,
  });
}

export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  return new ApiError(405, "method_not_allowed", "Method not allowed", {
    details: `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`,
    headers: { Allow: allowed.join(", ") },
  });
}

export function invalidPayload(details: string): ApiError {
  return new ApiError(400, "invalid_payload", "Invalid payload", { details });
}

/** A project document (a state import) that does not hold together; details give the JSON path, no file. */
export function invalidDocument(problem: DocumentProblem): ApiError {
  return invalidPayload(describeProblem(problem));
}

export function unsupportedMediaType(contentType: string, expected: string): ApiError {
  return new ApiError(415, "unsupported_media_type", "Unsupported media type", {
    details: `Content-Type '${contentType}' is not supported; send ${expected}`,
  });
}

export function payloadTooLarge(limitBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", "Payload too large", {
    details: `Request body exceeds the limit of ${limitBytes} bytes`,
  });
}

export function tooManyFormFields(limit: number): ApiError {
  return new ApiError(413, "payload_too_large", "Payload too large", {
    details: `The form body has more than ${limit} fields`,
  });
}

/** The request's head (request line and headers) is larger than the server reads. */
export function headersTooLarge(limitBytes: number): ApiError {
  return new ApiError(431, "request_header_fields_too_large", "Request header fields too large", {
    details: `The request line and headers exceed the limit of ${limitBytes} bytes`,
  });
}

/** A client that did not send its whole request in time (slow or stalled). */
export function requestTimeout(): ApiError {
  return new ApiError(408, "request_timeout", "Request timeout", {
    details: "The request was not received in full in time; the connection is closed",
  });
}

/** Bytes that are not an HTTP/1.1 request the server can read (bad request line, header, framing). */
export function badHttpRequest(reason: string): ApiError {
  return new ApiError(400, "bad_request", "Bad request", {
    details: `The request is not valid HTTP: ${reason}`,
  });
}

export function expectationFailed(expectation: string): ApiError {
  return new ApiError(417, "expectation_failed", "Expectation failed", {
    details: `Expect: ${expectation} is not supported; only 100-continue is`,
  });
}

export function unauthorized(details: string): ApiError {
  return new ApiError(401, "unauthorized", "Unauthorized", { details });
}

export function forbidden(details: string): ApiError {
  return new ApiError(403, "forbidden", "Forbidden", { details });
}

export function invalidGrantType(): ApiError {
  return new ApiError(400, "invalid_grant_type", "Invalid grant_type", {
    details: "grant_type must be client_credentials",
  });
}

export function invalidScope(offending: readonly string[]): ApiError {
  const values = offending.join(" ");
  return new ApiError(400, "invalid_scope", `Invalid scope: ${values}`, {
    details: offending.length === 0 ? "scope is required" : `Scope values not allowed: ${values}`,
  });
}

export function tokenLimitReached(limit: number): ApiError {
  return new ApiError(429, "token_limit_reached", "Token limit reached", {
    details: `A project may hold at most ${limit} unexpired OAuth tokens`,
  });
}

export function conflict(details: string): ApiError {
  return new ApiError(409, "conflict", "Conflict", { details });
}

/**
 * The real service's answer once a project has used up its API calls for the period: 429 with the period's
 * numbers in `X-Rate-Limit-*` headers and the wait in `Retry-After` (what its SDK reads) and `X-Rate-Limit-Retry`.
 */
export function apiLimitReached(
  limit: number,
  windowSeconds: number,
  retryAtMs: number,
  nowMs: number,
): ApiError {
  const retryAfter = Math.max(1, Math.ceil((retryAtMs - nowMs) / 1000));
  return new ApiError(429, "api_limit_reached", "API limit reached", {
    details: `The project may make ${limit} API request${limit === 1 ? "" : "s"} per ${windowSeconds} s; retry in ${retryAfter} s`,
    headers: {
      "X-Rate-Limit-Limit": String(limit),
      "X-Rate-Limit-Remaining": "0",
      "X-Rate-Limit-Retry": String(Math.ceil(retryAtMs / 1000)),
      "Retry-After": String(retryAfter),
    },
  });
}

export function internalError(): ApiError {
  return new ApiError(500, "internal_error", "Internal Server Error", {
    details: "The emulator hit an unexpected condition; the server log has the request id",
  });
}

/**
 * With STATE_SYNC=always a change is acknowledged only once it is on disk; when the save fails the change is
 * made (and will be saved by a later attempt) but not acknowledged.
 */
export function stateNotSaved(cause: unknown): ApiError {
  const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message ?? String(cause);
  return new ApiError(500, "state_not_saved", "State not saved", {
    details: `The change could not be written to the state file (${reason}); the server keeps trying to save it`,
  });
}

/** Statuses that reach the error middleware from Express or its body parser carry no key of ours. */
export function fromHttpStatus(status: number, details: string): ApiError {
  switch (status) {
    case 400:
      return new ApiError(400, "bad_request", "Bad request", { details });
    case 413:
      return new ApiError(413, "payload_too_large", "Payload too large", { details });
    case 415:
      return new ApiError(415, "unsupported_media_type", "Unsupported media type", { details });
    default:
      return status >= 400 && status < 500
        ? new ApiError(status, "bad_request", "Bad request", { details })
        : internalError();
  }
}

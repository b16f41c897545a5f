import { type DocumentProblem, describeProblem } from "../platform/documents.js";

/**
 * The service's error vocabulary and the errors the domain raises. Every error's status and message text is
 * written once, in ERRORS below (stripe-mock keeps its messages in one block the same way); the factories beside
 * each condition (here, in a resource's own errors.ts, and the HTTP layer's http/errors/http-errors.ts) add the `details`.
 * The wire form of an error is written by one function, errorBody() in http/errors/http-errors.ts.
 */
export const ERRORS = {
  bad_request: [400, "Bad request"],
  invalid_payload: [400, "Invalid payload"],
  invalid_grant_type: [400, "Invalid grant_type"],
  /** The message names the refused values after a colon: `Invalid scope: vouchers`. */
  invalid_scope: [400, "Invalid scope"],
  invalid_campaign_type: [400, "Invalid campaign type"],
  voucher_already_published: [400, "Voucher already published"],
  voucher_disabled: [400, "Voucher disabled"],
  voucher_expired: [400, "Voucher expired"],
  voucher_not_active: [400, "Voucher not active"],
  no_voucher_suitable_for_publication: [400, "Couldn't find any voucher suitable for publication"],
  voucher_cannot_be_published: [400, "Voucher cannot be published"],
  duplicate_source_id: [400, "Duplicate source_id"],
  event_not_defined: [400, "Event not defined"],
  metadata_validation_failed: [400, "Metadata validation failed"],
  loyalty_card_not_assigned: [400, "Loyalty card not assigned to customer"],
  invalid_referral_code: [400, "Invalid referral code"],
  unauthorized: [401, "Unauthorized"],
  forbidden: [403, "Forbidden"],
  tier_range_overlap: [403, "Tier range overlap"],
  not_found: [404, "Resource not found"],
  /** The documented 405 (documentation/api-reference/errors.mdx, "Error structure"). */
  method_not_allowed: [405, "HTTP Method Not Allowed"],
  not_acceptable: [406, "Not Acceptable"],
  request_timeout: [408, "Request timeout"],
  conflict: [409, "Conflict"],
  tier_limit_exceeded: [409, "Tier limit exceeded"],
  resource_in_use: [409, "Resource in use"],
  /** One of the server's caps (domain/caps.ts, Caps): the details name the variable that raises it. */
  limit_exceeded: [409, "Limit exceeded"],
  /** errors.mdx: "request body payload too large or query string too large"; it gives the key, not a message. */
  query_too_large: [413, "Query too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  expectation_failed: [417, "Expectation failed"],
  token_limit_reached: [429, "Token limit reached"],
  api_limit_reached: [429, "API limit reached"],
  request_header_fields_too_large: [431, "Request header fields too large"],
  internal_error: [500, "Internal Server Error"],
  not_emulated: [501, "Not emulated"],
  state_not_saved: [500, "State not saved"],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorKey = keyof typeof ERRORS;

export interface ApiErrorInit {
  details?: string;
  resourceId?: string;
  resourceType?: string;
  /** Fields the real service adds for some errors, such as `related_object_ids` on `resource_in_use`. */
  extra?: Record<string, unknown>;
  /** Response headers that belong to the error, such as `Allow` on 405. */
  headers?: Record<string, string>;
  /**
   * The answer carries no `key`: the service documents this error without one (the 405 of errors.mdx's "Error
   * structure" is `code`, `message` and `details`). The key still names the error in logs and the journal.
   */
  keyless?: boolean;
}

export class ApiError extends Error {
  readonly status: number;
  readonly key: string;
  readonly details: string | undefined;
  readonly resourceId: string | undefined;
  readonly resourceType: string | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly keyless: boolean;

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
    this.keyless = init.keyless ?? false;
  }
}

/** An error of the service's vocabulary: its status and message from ERRORS, the details from the caller. */
export function apiError(key: ErrorKey, init: ApiErrorInit = {}): ApiError {
  const [status, message] = ERRORS[key];
  return new ApiError(status, key, message, init);
}

/**
 * The service's 404 for a record: `resource_type` names what was looked for (`voucher`, `vl_tier_structure`). A
 * stored collection's is its descriptor's (domain/collection.ts); the few others (`fault`, `webhook_delivery`) are
 * named where they are looked up.
 */
export function notFound(resourceType: string, id: string): ApiError {
  return apiError("not_found", {
    details: `Cannot find ${resourceType} with id ${id}`,
    resourceId: id,
    resourceType,
  });
}

/** Loyalty v2: the structure already holds its most tiers (docs/reference/operations.md, "Creating a tier: the rules"). */
export function tierLimitExceeded(structureId: string, limit: number): ApiError {
  return apiError("tier_limit_exceeded", {
    details: `Tier structure ${structureId} already has the maximum of ${limit} tiers`,
    resourceId: structureId,
    resourceType: "vl_tier_structure",
  });
}

/** Loyalty v2: a POINTS range that shares a point with a tier of the structure; names that tier. */
export function tierRangeOverlap(range: string, tier: { id: string; name: string; range: string }): ApiError {
  return apiError("tier_range_overlap", {
    details: `Points range ${range} overlaps tier ${tier.id} (${tier.name}, points ${tier.range})`,
    resourceId: tier.id,
    resourceType: "vl_tier",
  });
}

/**
 * Loyalty v2: a resource other objects still point at cannot be deleted; the error lists them. 409 as the beta's
 * contract lists it; the generally available reference answers the same error with 400 (its deleteBenefit).
 */
export function resourceInUse(
  resource: { id: string; type: string; label: string },
  related: { type: string; label: string; ids: readonly string[] },
  status: 400 | 409 = ERRORS.resource_in_use[0],
): ApiError {
  const plural = related.ids.length === 1 ? related.label : `${related.label}s`;
  return new ApiError(status, "resource_in_use", ERRORS.resource_in_use[1], {
    details: `${resource.label} ${resource.id} is used by ${plural} ${related.ids.join(", ")}`,
    resourceId: resource.id,
    resourceType: resource.type,
    extra: { related_object_ids: [...related.ids], related_object_type: related.type },
  });
}

export function invalidPayload(details: string): ApiError {
  return apiError("invalid_payload", { details });
}

/** A project document (a state import) that does not hold together; details give the JSON path, no file. */
export function invalidDocument(problem: DocumentProblem): ApiError {
  return invalidPayload(describeProblem(problem));
}

export function unauthorized(details: string): ApiError {
  return apiError("unauthorized", { details });
}

export function forbidden(details: string): ApiError {
  return apiError("forbidden", { details });
}

export function invalidGrantType(): ApiError {
  return apiError("invalid_grant_type", {
    details: "grant_type must be client_credentials",
  });
}

export function invalidScope(offending: readonly string[]): ApiError {
  const values = offending.join(" ");
  const [status, message] = ERRORS.invalid_scope;
  return new ApiError(status, "invalid_scope", `${message}: ${values}`, {
    details: offending.length === 0 ? "scope is required" : `Scope values not allowed: ${values}`,
  });
}

export function tokenLimitReached(limit: number): ApiError {
  return apiError("token_limit_reached", {
    details: `A project may hold at most ${limit} unexpired OAuth tokens`,
  });
}

/**
 * A cap of the emulator reached: 409 like the service's own cap on tiers (a retry cannot succeed until something
 * is deleted or the cap raised, so not 429). `what` is the plural of what is kept ("custom events").
 */
export function limitExceeded(holder: string, what: string, limit: number, variable: string): ApiError {
  return apiError("limit_exceeded", {
    details: `${holder} already holds the maximum of ${limit} ${what}; ${variable} raises the limit`,
  });
}

/**
 * Work the server's memory budget does not admit (a snapshot saved or restored): 409 `limit_exceeded`, as past a
 * cap, naming the budget, what the work would have brought the heap to, and the variable that raises it.
 */
export function memoryBudgetExceeded(
  work: string,
  over: { wouldUseMb: number; budgetMb: number },
  variable: string,
): ApiError {
  return apiError("limit_exceeded", {
    details:
      `${work} would bring the server's heap to ${over.wouldUseMb} MiB, past its memory budget of ` +
      `${over.budgetMb} MiB; ${variable} raises the budget, up to 85% of Node's heap limit (--max-old-space-size)`,
  });
}

export function conflict(details: string): ApiError {
  return apiError("conflict", { details });
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
  return apiError("api_limit_reached", {
    details: `The project may make ${limit} API request${limit === 1 ? "" : "s"} per ${windowSeconds} s; retry in ${retryAfter} s`,
    headers: {
      "X-Rate-Limit-Limit": String(limit),
      "X-Rate-Limit-Remaining": "0",
      "X-Rate-Limit-Retry": String(Math.ceil(retryAtMs / 1000)),
      "Retry-After": String(retryAfter),
      // documentation/guides/limits.mdx: the type of limit reached; the per-period call limit is `api_calls`.
      "X-Rate-Limit-Type": "api_calls",
    },
  });
}

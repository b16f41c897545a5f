import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { keyedObject } from "../../domain/shared/schema-parts.js";
import { FAULT_ACTIONS, type FaultSpec, statusKey } from "../../emulation/faults/fault-rules.js";
import { methodSchema, pathPatternSchema } from "../../emulation/path-pattern.js";

/**
 * What the control API accepts as a fault rule. The header grammar and HTTP's reason phrases are the transport's
 * business, so they live here; the emulation keeps the rules and their matching (emulation/faults/fault-rules.ts).
 */

function completeError(
  status: number,
  error: { key?: string | undefined; message?: string | undefined; details?: string | undefined } | undefined,
): NonNullable<FaultSpec["error"]> {
  return {
    key: error?.key ?? statusKey(status),
    message: error?.message ?? STATUS_CODES[status] ?? "Error",
    ...(error?.details !== undefined && { details: error.details }),
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node lets into a header value: tabs, visible ASCII and Latin-1; no CR, LF or other control characters. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * Headers that frame the response: set by a rule, they would leave the client waiting for bytes that never come
 * (a `Trailer`) or reading the wrong ones. Breaking the connection on purpose is what `drop` and `truncate` do.
 */
const FRAMING_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "trailer",
  "te",
  "upgrade",
  "proxy-connection",
]);

/** Extra headers of an `error` answer; refused here rather than failing as a 500 when the rule plays. */
const faultHeaders = keyedObject
  .superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      const issue = (message: string) => ctx.addIssue({ code: "custom", path: [name], message });
      if (!HEADER_NAME.test(name)) issue("is not an HTTP header name");
      else if (FRAMING_HEADERS.has(name.toLowerCase())) issue("is not allowed: it frames the response");
      else if (typeof value !== "string") issue("should be string");
      else if (!HEADER_VALUE.test(value))
        issue("should be a header value (no control characters, Latin-1 only)");
    }
  })
  .meta({ type: "object", additionalProperties: { type: "string" } } as never);

/**
 * The body of `POST /__mock/projects/{id}/faults`. An `error` rule's key and message default to the status's
 * reason phrase, as the real service would word it (503: service_unavailable, "Service Unavailable").
 */
export const faultInputSchema = z
  .strictObject({
    method: methodSchema.default("*"),
    path: pathPatternSchema,
    action: z.enum(FAULT_ACTIONS),
    status: z.number().int().min(400).max(599).optional(),
    error: z
      .strictObject({
        key: z.string().min(1).max(100).optional(),
        message: z.string().min(1).max(1000).optional(),
        details: z.string().max(5000).optional(),
      })
      .optional(),
    headers: faultHeaders.optional(),
    latency_ms: z.number().int().min(0).max(120_000).default(0),
    times: z.number().int().min(1).max(1_000_000).optional(),
  })
  .superRefine((input, ctx) => {
    const only = (field: "status" | "error" | "headers") => {
      if (input.action !== "error" && input[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "is only allowed when action is error" });
    };
    only("status");
    only("error");
    only("headers");
    if (input.action === "error" && input.status === undefined)
      ctx.addIssue({ code: "custom", path: ["status"], message: "is required when action is error" });
    if (input.action === "delay" && input.latency_ms === 0)
      ctx.addIssue({ code: "custom", path: ["latency_ms"], message: "should be > 0 when action is delay" });
  })
  .transform(
    (input): FaultSpec => ({
      method: input.method,
      path: input.path,
      action: input.action,
      status: input.status ?? null,
      error: input.status === undefined ? null : completeError(input.status, input.error),
      // faultHeaders checked that every value is a string.
      headers: (input.headers ?? {}) as Record<string, string>,
      latency_ms: input.latency_ms,
      times: input.times ?? null,
    }),
  );

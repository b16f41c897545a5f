import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { v2Id } from "../../platform/ids.js";
import { ApiError, notFound } from "../errors.js";
import {
  compilePathPattern,
  methodMatches,
  methodSchema,
  type PathMatcher,
  pathPatternSchema,
} from "../shared/path-pattern.js";
import { freeObject } from "../shared/schema-parts.js";

/**
 * Fault injection: a project's rules that make matching requests fail the way networks and servers fail, so an
 * application's retries and error handling can be tested. `error` answers with a status and an error object,
 * `delay` only adds latency, `drop` closes the connection without an answer (the operation does not run),
 * `truncate` runs the operation and cuts its answer off half-way (the change happens, the client never learns it).
 */
export const FAULT_ACTIONS = ["error", "delay", "drop", "truncate"] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

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
const faultHeaders = freeObject
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
  });

export type FaultInput = z.output<typeof faultInputSchema>;

export interface Fault {
  id: string;
  method: string;
  path: string;
  action: FaultAction;
  status: number | null;
  error: { key: string; message: string; details?: string } | null;
  headers: Record<string, string>;
  latency_ms: number;
  /** How many matches the rule was given; null: until it is deleted. */
  times: number | null;
  remaining: number | null;
  matched: number;
  created_at: string;
}

/** The key the real service would use for a status: the reason phrase in snake case (503: service_unavailable). */
function keyFor(status: number): string {
  return (STATUS_CODES[status] ?? "error").toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

export function faultNotFound(id: string): ApiError {
  return notFound("fault", id);
}

/** The error a fault of action `error` answers with. */
export function faultError(fault: Fault): ApiError {
  const status = fault.status ?? 500;
  const error = fault.error ?? { key: keyFor(status), message: STATUS_CODES[status] ?? "Error" };
  return new ApiError(status, error.key, error.message, {
    ...(error.details !== undefined && { details: error.details }),
    headers: fault.headers,
  });
}

/** The fault rules of one project, first added first matched; a rule with `times` retires after its last match. */
export class FaultRules {
  readonly #rules: { fault: Fault; matches: PathMatcher }[] = [];

  add(input: FaultInput, nowIso: string): Fault {
    const status = input.status ?? null;
    const fault: Fault = {
      id: v2Id("flt"),
      method: input.method,
      path: input.path,
      action: input.action,
      status,
      error:
        status === null
          ? null
          : {
              key: input.error?.key ?? keyFor(status),
              message: input.error?.message ?? STATUS_CODES[status] ?? "Error",
              ...(input.error?.details !== undefined && { details: input.error.details }),
            },
      // faultHeaders checked that every value is a string.
      headers: (input.headers ?? {}) as Record<string, string>,
      latency_ms: input.latency_ms,
      times: input.times ?? null,
      remaining: input.times ?? null,
      matched: 0,
      created_at: nowIso,
    };
    this.#rules.push({ fault, matches: compilePathPattern(input.path) });
    return fault;
  }

  /** The first rule matching the request, counted as used; undefined when none matches. */
  take(method: string, path: string): Fault | undefined {
    const index = this.#rules.findIndex(
      ({ fault, matches }) => methodMatches(fault.method, method) && matches(path),
    );
    const rule = this.#rules[index];
    if (!rule) return undefined;
    const { fault } = rule;
    fault.matched++;
    if (fault.remaining !== null) {
      fault.remaining--;
      if (fault.remaining === 0) this.#rules.splice(index, 1);
    }
    return { ...fault };
  }

  list(): Fault[] {
    return this.#rules.map(({ fault }) => ({ ...fault }));
  }

  get(id: string): Fault {
    const rule = this.#rules.find(({ fault }) => fault.id === id);
    if (!rule) throw faultNotFound(id);
    return { ...rule.fault };
  }

  remove(id: string): Fault {
    const index = this.#rules.findIndex(({ fault }) => fault.id === id);
    const [rule] = index === -1 ? [] : this.#rules.splice(index, 1);
    if (!rule) throw faultNotFound(id);
    return rule.fault;
  }

  clear(): number {
    return this.#rules.splice(0).length;
  }
}

import { STATUS_CODES } from "node:http";
import { type IdSource, randomIds } from "../../platform/ids.js";
import { RuleIndex } from "./rule-index.js";

/**
 * Fault injection: a project's rules that make matching requests fail the way networks and servers fail, so an
 * application's retries and error handling can be tested. `error` answers with a status and an error object,
 * `delay` only adds latency, `drop` closes the connection without an answer (the operation does not run),
 * `truncate` runs the operation and cuts its answer off half-way (the change happens, the client never learns it).
 */
export const FAULT_ACTIONS = ["error", "delay", "drop", "truncate"] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

/** The key the real service would use for a status: the reason phrase in snake case (503: service_unavailable). */
export function statusKey(status: number): string {
  return (STATUS_CODES[status] ?? "error").toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

/**
 * A rule as the control API hands it over, already checked and with its error answer completed (status key and
 * message filled in by the control API's input, http/control/fault-input.ts).
 */
export interface FaultSpec {
  method: string;
  path: string;
  action: FaultAction;
  status: number | null;
  error: { key: string; message: string; details?: string } | null;
  headers: Record<string, string>;
  latency_ms: number;
  /** How many matches the rule is given; null: until it is deleted. */
  times: number | null;
}

/** A rule as the project keeps it: the spec, with its id and what has happened to it since. */
export interface Fault extends FaultSpec {
  id: string;
  remaining: number | null;
  matched: number;
  created_at: string;
}

/**
 * How the rules refuse, in the service's words: the project that holds them says (domain/projects/project.ts), as
 * the machinery sits under the domain and knows none of its errors.
 */
export interface FaultRefusals {
  /** No rule has this id. */
  notFound(id: string): Error;
  /** The project holds `limit` rules, its most. */
  full(limit: number): Error;
}

/**
 * The fault rules of one project, first added first matched; a rule with `times` retires after its last match.
 * A request checks only the rules that could match it (rule-index.ts): with thousands of rules, matching stays
 * as cheap as with one, where a scan of them all cost every request of the project (100k rules: 54 req/s).
 */
export class FaultRules {
  readonly #rules = new RuleIndex<Fault>();
  readonly #refusals: FaultRefusals;

  constructor(refusals: FaultRefusals) {
    this.#refusals = refusals;
  }

  /** Adds a rule within the project's cap on rules; refused (changing nothing) when the project holds its most. */
  add(spec: FaultSpec, nowIso: string, limit: number, ids: IdSource = randomIds): Fault {
    if (this.#rules.size >= limit) throw this.#refusals.full(limit);
    const fault: Fault = {
      ...spec,
      id: ids.v2Id("flt"),
      remaining: spec.times,
      matched: 0,
      created_at: nowIso,
    };
    this.#rules.add(fault);
    return fault;
  }

  /** The first rule matching the request, counted as used; undefined when none matches. */
  /** How many rules there are: none, for nearly every request, and then nothing else need be asked. */
  get size(): number {
    return this.#rules.size;
  }

  take(method: string, path: string): Fault | undefined {
    const fault = this.#rules.first(method.toUpperCase(), path);
    if (!fault) return undefined;
    fault.matched++;
    if (fault.remaining !== null) {
      fault.remaining--;
      if (fault.remaining === 0) this.#rules.remove(fault.id);
    }
    return { ...fault };
  }

  list(): Fault[] {
    return this.#rules.list().map((fault) => ({ ...fault }));
  }

  get(id: string): Fault {
    const fault = this.#rules.get(id);
    if (!fault) throw this.#refusals.notFound(id);
    return { ...fault };
  }

  remove(id: string): Fault {
    const fault = this.#rules.remove(id);
    if (!fault) throw this.#refusals.notFound(id);
    return fault;
  }

  clear(): number {
    return this.#rules.clear();
  }
}

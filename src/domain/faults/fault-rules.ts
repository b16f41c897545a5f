import { v2Id } from "../../platform/ids.js";
import { type ApiError, notFound } from "../errors.js";
import { compilePathPattern, methodMatches, type PathMatcher } from "../shared/path-pattern.js";

/**
 * Fault injection: a project's rules that make matching requests fail the way networks and servers fail, so an
 * application's retries and error handling can be tested. `error` answers with a status and an error object,
 * `delay` only adds latency, `drop` closes the connection without an answer (the operation does not run),
 * `truncate` runs the operation and cuts its answer off half-way (the change happens, the client never learns it).
 */
export const FAULT_ACTIONS = ["error", "delay", "drop", "truncate"] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

/**
 * A rule as the control API hands it over, already checked and with its error answer completed (status key and
 * message filled in by the HTTP layer, which knows HTTP's reason phrases: http/control/fault-input.ts).
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

export function faultNotFound(id: string): ApiError {
  return notFound("fault", id);
}

/** The fault rules of one project, first added first matched; a rule with `times` retires after its last match. */
export class FaultRules {
  readonly #rules: { fault: Fault; matches: PathMatcher }[] = [];

  add(spec: FaultSpec, nowIso: string): Fault {
    const fault: Fault = {
      ...spec,
      id: v2Id("flt"),
      remaining: spec.times,
      matched: 0,
      created_at: nowIso,
    };
    this.#rules.push({ fault, matches: compilePathPattern(spec.path) });
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

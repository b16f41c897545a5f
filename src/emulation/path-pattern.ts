import { z } from "zod";

/**
 * Request paths as fault rules and journal filters name them: an exact path (`/v1/events`), or a pattern in which
 * `{name}` or `*` stands for one path segment or part of one, and `**` for anything, slashes included
 * (`/v1/locations/{locationId}`, `/v2/**`). The OpenAPI-style `{name}` lets a rule be copied from the contract.
 */
export type PathMatcher = (path: string) => boolean;

export function isPathPattern(pattern: string): boolean {
  return /[*{]/.test(pattern);
}

/** One step of a compiled pattern: a character, one character of a segment, a run within a segment, any run. */
type Token = { kind: "char"; char: string } | { kind: "one" } | { kind: "segment" } | { kind: "any" };

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (const part of pattern.split(/(\*\*|\*|\{[^}/]*\})/)) {
    if (part === "**") tokens.push({ kind: "any" });
    else if (part === "*") tokens.push({ kind: "segment" });
    // `{name}` is at least one character of a segment.
    else if (part.startsWith("{") && part.endsWith("}")) tokens.push({ kind: "one" }, { kind: "segment" });
    else for (const char of part) tokens.push({ kind: "char", char });
  }
  return tokens;
}

/**
 * Matches by walking the pattern and the path together, keeping the set of pattern positions reached so far: time
 * proportional to the path's length times the pattern's, whatever the pattern. A regular expression built from the
 * pattern (`[^/]*a[^/]*a…`) backtracks exponentially on a path that almost matches, and a rule or a journal filter
 * sent to the control API could then hang the server on every request.
 */
export function compilePathPattern(pattern: string): PathMatcher {
  if (!isPathPattern(pattern)) return (path) => path === pattern;
  const tokens = tokenize(pattern);
  const size = tokens.length;
  /** Adds a position and every position reachable from it without reading (a run may be empty). */
  const reach = (states: Uint8Array, from: number) => {
    for (let at = from; at <= size && states[at] === 0; at++) {
      states[at] = 1;
      const kind = tokens[at]?.kind;
      if (kind !== "segment" && kind !== "any") break;
    }
  };
  return (path) => {
    let current = new Uint8Array(size + 1);
    reach(current, 0);
    for (const char of path) {
      const next = new Uint8Array(size + 1);
      for (let at = 0; at < size; at++) {
        if (current[at] === 0) continue;
        const token = tokens[at] as Token;
        if (token.kind === "any" || (token.kind === "segment" && char !== "/")) reach(next, at);
        else if ((token.kind === "one" && char !== "/") || (token.kind === "char" && token.char === char))
          reach(next, at + 1);
      }
      current = next;
    }
    return current[size] === 1;
  };
}

/** A path or pattern as the control API accepts it: absolute, no query string, no stray braces. */
export const pathPatternSchema = z
  .string()
  .min(1)
  .max(2000)
  .regex(/^\//, "must start with /")
  .refine((value) => !value.includes("?"), "must not contain a query string")
  .refine((value) => !/\{[^}]*(\{|\/|$)/.test(value), "has a { without its }");

/** Methods as rules name them: one HTTP method, any case, or `*` for all. */
export const methodSchema = z
  .string()
  .regex(/^([A-Za-z]+|\*)$/, "must be an HTTP method or *")
  .transform((value) => value.toUpperCase());

export function methodMatches(expected: string, actual: string): boolean {
  return expected === "*" || expected === actual.toUpperCase();
}

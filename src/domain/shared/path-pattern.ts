import { z } from "zod";

/**
 * Request paths as fault rules and journal filters name them: an exact path (`/v1/events`), or a pattern in which
 * `{name}` or `*` stands for one path segment or part of one, and `**` for anything, slashes included
 * (`/v1/locations/{locationId}`, `/v2/**`). The OpenAPI-style `{name}` lets a rule be copied from the contract.
 */
export type PathMatcher = (path: string) => boolean;

const SPECIAL = /[.+?^$()|[\]\\]/g;

export function isPathPattern(pattern: string): boolean {
  return /[*{]/.test(pattern);
}

export function compilePathPattern(pattern: string): PathMatcher {
  if (!isPathPattern(pattern)) return (path) => path === pattern;
  let source = "";
  for (const token of pattern.split(/(\*\*|\*|\{[^}/]*\})/)) {
    if (token === "**") source += ".*";
    else if (token === "*") source += "[^/]*";
    else if (token.startsWith("{") && token.endsWith("}")) source += "[^/]+";
    else source += token.replace(SPECIAL, "\\$&");
  }
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
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

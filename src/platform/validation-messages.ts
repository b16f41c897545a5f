import type { z } from "zod";

/**
 * Turns a zod issue into the sentence the service puts in `details`: the property as a path from the body's root
 * (`.customer.source_id`) and the rule it broke, worded like the service's validator ("should be object").
 */

const TYPE_NAMES: Record<string, string> = { int: "integer", nan: "number", record: "object" };

export function propertyPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`))
    .join("");
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment))
      return { present: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value: current };
}

function bound(issue: { minimum?: unknown; maximum?: unknown }): string {
  return String(issue.minimum ?? issue.maximum);
}

/** zod reports a regex as `/source/flags`; the service's validator quotes the bare source. */
function patternSource(pattern: unknown): string {
  const text = String(pattern ?? "");
  return /^\/.*\/[a-z]*$/s.test(text) ? text.slice(1, text.lastIndexOf("/")) : text;
}

export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const path = propertyPath(issue.path);
  const subject = path === "" ? "Request body" : `Property ${path}`;
  switch (issue.code) {
    case "invalid_type": {
      if (path !== "" && !valueAt(input, issue.path).present) return `${subject} is required`;
      return `${subject} should be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    }
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      if (issue.origin === "string")
        return `${subject} should NOT be ${small ? "shorter" : "longer"} than ${bound(issue)} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${subject} should NOT have ${small ? "fewer" : "more"} than ${bound(issue)} items`;
      const op = small ? (issue.inclusive ? ">=" : ">") : issue.inclusive ? "<=" : "<";
      return `${subject} should be ${op} ${bound(issue)}`;
    }
    case "invalid_value":
      return `${subject} should be equal to one of the allowed values: ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys": {
      const keys = issue.keys.map((key) => `${path}.${key}`);
      return `Property ${keys.join(", ")} is not allowed`;
    }
    case "invalid_format":
      return issue.format === "regex"
        ? `${subject} should match pattern "${patternSource((issue as { pattern?: unknown }).pattern)}"`
        : `${subject} should match format "${issue.format}"`;
    case "invalid_union":
      return `${subject} should match one of the allowed shapes`;
    case "custom":
      return `${subject} ${issue.message}`;
    default:
      return `${subject}: ${issue.message}`;
  }
}

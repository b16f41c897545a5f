import { z } from "zod";
import type { EventSchema } from "./event-schema.js";

type PropertyType = EventSchema["schema"]["properties"][string]["type"];

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

const CHECKS: Record<PropertyType, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
  date: (value) => isoDate.safeParse(value).success,
  datetime: (value) => isoDateTime.safeParse(value).success,
  object: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
};

const EXPECTED: Record<PropertyType, string> = {
  string: "be string",
  number: "be number",
  boolean: "be boolean",
  date: 'match format "date" (YYYY-MM-DD)',
  datetime: 'match format "date-time" (ISO 8601)',
  object: "be object",
};

/**
 * Checks event metadata against the event's schema, as the service does: required properties present, each
 * defined property of its type (arrays of it when the schema says `array`). Properties the schema does not name
 * pass, and a null counts as absent. Returns the first problem, or undefined.
 */
export function metadataProblem(schema: EventSchema, metadata: Record<string, unknown>): string | undefined {
  for (const [name, definition] of Object.entries(schema.schema.properties)) {
    const value = Object.hasOwn(metadata, name) ? metadata[name] : undefined;
    const path = `Property .metadata.${name}`;
    if (value === undefined || value === null) {
      if (!definition.optional) return `${path} is required`;
      continue;
    }
    const check = CHECKS[definition.type];
    if (definition.array) {
      if (!Array.isArray(value)) return `${path} should be array`;
      const bad = value.findIndex((item) => !check(item));
      if (bad >= 0) return `${path}[${bad}] should ${EXPECTED[definition.type]}`;
    } else if (!check(value)) return `${path} should ${EXPECTED[definition.type]}`;
  }
  return undefined;
}

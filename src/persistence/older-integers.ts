import { olderInt64 } from "../domain/shared/int64.js";

/** An incentive's 64-bit fields, wherever they sit in its record (an incentive holds no free-form data). */
const FIELDS = new Set(["every", "value", "balance"]);

/**
 * An incentive record read from a state file, each 64-bit field as olderInt64 reads it (the int64 maximum as 0.8.0
 * and earlier wrote it), changed in place. Tier structures need nothing: those versions kept a tier's min_value
 * and max_value below 2^53.
 */
function olderIncentive(record: unknown): void {
  if (typeof record !== "object" || record === null) return;
  const fields = record as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (FIELDS.has(key)) fields[key] = olderInt64(fields[key]);
    else olderIncentive(fields[key]);
  }
}

/** The incentives of a state file's document (or a line's one record), as olderIncentive reads each. */
export function olderIncentives(records: unknown): void {
  if (Array.isArray(records)) for (const record of records) olderIncentive(record);
  else olderIncentive(records);
}

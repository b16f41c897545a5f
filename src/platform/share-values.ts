/**
 * Makes a record just read from a snapshot or a fixture file share, with the record before it in the same
 * collection, every value equal to that record's: strings (a million cards then hold one copy of their campaign
 * id, type and date, not a million) and objects or arrays of plain values in the same key order (an empty metadata, a zero balance).
 * Records are frozen once the project is built and never changed in place (stores put a new object), so the
 * sharing cannot be seen; what it saves is memory, and with it the garbage collector's and deepFreeze's work,
 * most of a restart's cost after JSON.parse. Only a freshly parsed record may be passed: it is changed in place.
 */
export function shareWithPrevious(record: Record<string, unknown>, previous: Record<string, unknown>): void {
  // for-in rather than Object.keys: V8 reads `record[key]` through the shape's key cache, with no array per record.
  for (const key in record) {
    const value = record[key];
    const before = previous[key];
    // Strings of up to 10 characters come out of JSON.parse shared already; longer ones are copies.
    const share =
      value === before ? typeof value === "string" && value.length > 10 : sameShallow(value, before);
    // An own __proto__ key (JSON.parse makes one) would set the prototype if assigned; an inherited key is not
    // the record's to change.
    if (share && key !== "__proto__" && Object.hasOwn(record, key)) record[key] = before;
  }
}

/** Two objects, or two arrays, of the same plain values under the same keys in the same order. */
function sameShallow(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const value = x[key];
    if (key !== otherKeys[i] || value !== y[key] || (typeof value === "object" && value !== null))
      return false;
  }
  return true;
}

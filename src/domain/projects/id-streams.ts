import { createHash } from "node:crypto";
import type { IdSource } from "../../platform/ids.js";
import type { Steps } from "../../platform/steps.js";
import { COLLECTION_NAMES, type ProjectDocument } from "./project-document.js";

/**
 * A seeded project draws every id, code, token and secret from its stream in order, and a reset starts the stream
 * again. A document brought in (a state import; a snapshot restored) may hold values that stream made already: an
 * export taken before a reset, or on another server with the same seed. Drawing on from where the stream stands
 * would make them again, and a new customer would take an imported one's id and replace her.
 *
 * `idsPast` is the one place that moves a stream past a document: the project then draws from a branch of its
 * stream named by the document's fingerprint (every value the stream could have made that the document holds),
 * a stream that made none of them. The same seed and document give the same branch, so what follows an import is
 * reproducible on any server, as what follows a reset is. Unseeded projects draw from the CSPRNG and need nothing.
 */
export function* idsPast(ids: IdSource, document: ProjectDocument): Steps<IdSource> {
  return ids.seeded ? ids.branch(`past\u0000${yield* fingerprint(document)}`) : ids;
}

/** The fields a stream fills: record ids, tokens, key credentials, card codes, webhook secrets. */
const DRAWN = ["id", "access_token", "app_id", "app_token", "client_id", "code", "secret"] as const;
/** Records hashed per update: one update per value would cost a million-card import a second. */
const BATCH = 4096;

/** Hashed a batch at a time, yielding between batches (a million cards: about 250 of them). */
function* fingerprint(document: ProjectDocument): Steps<string> {
  const hash = createHash("sha256");
  for (const collection of COLLECTION_NAMES) {
    const records = document[collection] as readonly Record<string, unknown>[];
    hash.update(`\u0001${collection}`);
    for (let start = 0; start < records.length; start += BATCH) {
      const values: unknown[] = [];
      const end = Math.min(records.length, start + BATCH);
      for (let i = start; i < end; i++) {
        const record = records[i] as Record<string, unknown>;
        for (const field of DRAWN) if (Object.hasOwn(record, field)) values.push(record[field]);
      }
      hash.update(values.join("\u0000"));
      yield;
    }
  }
  return hash.digest("hex");
}

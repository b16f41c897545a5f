import type { JournalEntry, JournalRecord, RequestJournal } from "../../emulation/journal/journal.js";

/**
 * A journaled exchange whose entry is built from its materials (the record's own fields) each time the journal is
 * read, rather than once when the request ends: requests are many and reads are few. `entry()` must make a new
 * entry on every call (so no reader can change what the next one sees), and nobody may change the materials
 * afterwards.
 *
 * The record is one object holding what the filters read (time, method, path, operation, status) and the
 * materials, with no reference to the request or response, which would otherwise keep their socket's buffers
 * alive for as long as the entry stays in the ring (http/traffic/journal-request.ts builds it).
 */
export function keepUnbuilt(journal: RequestJournal, record: JournalRecord, capacity: number): void {
  journal.recordLazily(record, capacity);
}

/** The eager journal: the entry built now, once. */
export function keepBuilt(journal: RequestJournal, record: JournalRecord, capacity: number): void {
  const entry: JournalEntry = record.entry();
  journal.record(entry, capacity);
}

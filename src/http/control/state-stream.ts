import type { Response } from "express";
import type { Project } from "../../domain/projects/project.js";
import { COLLECTION_NAMES } from "../../domain/projects/project-document.js";
import { collectionView, projectHeader } from "../../domain/projects/state-export.js";
import { stringifyExact } from "../../platform/exact-json.js";

/** About this much JSON is written at a time: a slice is built in one synchronous step, then waits for the socket. */
const SLICE_CHARS = 64 * 1024;

/**
 * The same text as `JSON.stringify(exportProject(project))`, a slice at a time, never the whole: a project of a
 * million cards is hundreds of megabytes of JSON, past what one string may hold and far past what one request
 * should pin in memory.
 */
export function* exportSlices(project: Project, sliceChars = SLICE_CHARS): Generator<string> {
  let parts: string[] = [`{"project":${JSON.stringify(projectHeader(project))}`];
  let size = 0;
  for (const name of COLLECTION_NAMES) {
    parts.push(`,"${name}":[`);
    let first = true;
    for (const [, record] of collectionView(project, name).entries()) {
      const text = stringifyExact(record);
      parts.push(first ? text : `,${text}`);
      first = false;
      size += text.length;
      if (size >= sliceChars) {
        yield parts.join("");
        parts = [];
        size = 0;
      }
    }
    parts.push("]");
  }
  parts.push("}");
  yield parts.join("");
}

/**
 * Sends a project's state as JSON, honouring backpressure: the next slice is built only once the socket has taken
 * the last, so a client that reads slowly holds one slice in memory, not the export. A client that goes away
 * ends the export.
 */
export async function sendProjectState(res: Response, project: Project): Promise<void> {
  res.status(200);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  for (const slice of exportSlices(project)) {
    if (res.destroyed) return;
    if (!res.write(slice)) await drained(res);
  }
  if (!res.destroyed) res.end();
}

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

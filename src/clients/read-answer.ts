import type { IncomingMessage } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * An answer's body read with bounds, for the commands that call a server they do not trust (verify's target, the
 * server play plays on): a hostile or broken one may send an endless stream, a 100 MB answer or a small gzip that
 * inflates to gigabytes. The bytes as sent and as decoded are each capped (`--max-answer-bytes`, 8 MiB by default:
 * the service's largest answer to either is a few KiB), and JSON is checked for its nesting before it is parsed,
 * so nothing downstream walks deeper than MAX_ANSWER_DEPTH.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** The most `--max-answer-bytes` may be: well under the longest string V8 makes. */
export const MOST_ANSWER_BYTES = 256 * 1024 * 1024;
export const MAX_ANSWER_DEPTH = 64;

/**
 * The exchange failed, or its answer cannot be used (too large, undecodable, cut off): the message says which, in
 * words naming the request and who reads it.
 */
export class ExchangeFailed extends Error {
  override name = "ExchangeFailed";
}

const DECODERS: ReadonlyMap<string, () => NodeJS.ReadWriteStream> = new Map([
  ["gzip", createGunzip],
  ["x-gzip", createGunzip],
  ["deflate", createInflate],
  ["br", createBrotliDecompress],
]);

/**
 * `what`: the request in words (`POST /v1/oauth/token`), and `reader` the command reading it (`verify`), for the
 * reasons given.
 */
export function readBody(
  res: IncomingMessage,
  what: string,
  maxBytes: number,
  reader: string,
): Promise<Buffer> {
  const encoding = (res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const makeDecoder = DECODERS.get(encoding);
  if (makeDecoder === undefined && encoding !== "identity" && encoding !== "") {
    res.destroy();
    return Promise.reject(
      new ExchangeFailed(
        `the answer to ${what} is encoded as ${JSON.stringify(encoding)}, which ${reader} cannot read`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const decoder = makeDecoder?.();
    const chunks: Buffer[] = [];
    let [sent, decoded] = [0, 0];
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      res.destroy();
      decoder?.removeAllListeners("data");
      (decoder as { destroy?: () => void } | undefined)?.destroy?.();
      reject(new ExchangeFailed(reason));
    };
    const tooLarge = (how: string) =>
      `the answer to ${what} ${how} more than ${maxBytes} bytes (--max-answer-bytes): ${reader} reads no further`;
    const take = (chunk: Buffer) => {
      decoded += chunk.length;
      if (decoded > maxBytes) return fail(tooLarge(decoder ? "decodes to" : "is"));
      chunks.push(chunk);
    };
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    };
    res.on("data", (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > maxBytes) return fail(tooLarge("is"));
      if (decoder) decoder.write(chunk);
      else take(chunk);
    });
    res.on("error", () => fail(`the answer to ${what} was cut off before its end`));
    res.on("aborted", () => fail(`the answer to ${what} was cut off before its end`));
    if (decoder) {
      decoder.on("data", take);
      decoder.on("error", (error: Error) =>
        fail(`the answer to ${what} is not valid ${encoding} (${error.message})`),
      );
      decoder.on("end", done);
      res.on("end", () => decoder.end());
    } else res.on("end", done);
  });
}

/** Refuses a JSON text nested deeper than MAX_ANSWER_DEPTH before anything parses or walks it. */
export function checkDepth(text: string, what: string, reader: string): void {
  if (nestedDeeper(text, MAX_ANSWER_DEPTH))
    throw new ExchangeFailed(
      `the answer to ${what} nests deeper than ${MAX_ANSWER_DEPTH} levels: ${reader} does not read it`,
    );
}

/** Whether a JSON text nests arrays and objects deeper than `limit`; read without recursion, strings skipped. */
export function nestedDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 125 || c === 93) depth -= 1;
  }
  return false;
}

import fc from "fast-check";
import type { RawRequest } from "../helpers/raw-http.js";
import { hostileString } from "./json.js";

/**
 * Generated HTTP requests: the method, the request target (path and query, percent-encoded or not), the headers
 * (credentials, content types, anything else) and the body, each usually right and sometimes not.
 */

export type Header = readonly [string, string];

/**
 * Percent-encodes the UTF-8 bytes of a string, as encodeURIComponent would, but never throws: a lone surrogate
 * goes out as the bytes of U+FFFD, as any client's encoder would send it.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A path segment: usually one of the given ids, else something odd, encoded or raw. */
export function segment(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom(...valid).map(percentEncode) },
    { weight: 3, arbitrary: hostileString.map((s) => percentEncode(s.slice(0, 3000))) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "%",
        "%G0",
        "%E0%A4%A",
        "%C0%AF",
        "%00",
        "%2e%2e",
        "..",
        ".",
        "%2F",
        "a%2Fb",
        "%25",
        "%ZZ",
        "%ff%fe",
        "*",
        ";x=1",
        "~",
      ),
    },
    // UTF-8 bytes sent as they are, not percent-encoded.
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }).map(rawUtf8) },
  );
}

/** A string whose UTF-8 bytes go on the wire unencoded (request heads are written as latin1). */
export function rawUtf8(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom("a", "__proto__", "constructor", "__proto__[x]", "a[b][c]", "limit", "", "x%00"),
          fc.oneof(fc.constantFrom("1", "", "%", "%zz", "__proto__"), hostileString.map(percentEncode)),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`),
  },
  { weight: 1, arbitrary: fc.constantFrom("?", "??", "?&&", "?a", "#frag") },
);

/** The target: the path with its segments, sometimes bent (double slashes, a trailing slash, dot segments). */
export function target(segments: fc.Arbitrary<string[]>): fc.Arbitrary<string> {
  return fc
    .record({
      segments,
      bend: fc.oneof(
        { weight: 16, arbitrary: fc.constant("none") },
        { weight: 1, arbitrary: fc.constantFrom("trailing", "double", "dot", "upper") },
      ),
      query: queryString,
    })
    .map(({ segments: parts, bend, query }) => {
      let path = `/${parts.join("/")}`;
      if (bend === "trailing") path += "/";
      if (bend === "double") path = path.replace("/", "//");
      if (bend === "dot") path = path.replace(/\/([^/]*)$/, "/./$1");
      if (bend === "upper") path = path.toUpperCase();
      return path + query;
    });
}

/** Mostly the operation's own method; sometimes another, or one no server knows. */
export function method(own: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 40, arbitrary: fc.constant(own) },
    { weight: 3, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS") },
    { weight: 1, arbitrary: fc.constantFrom("TRACE", "CONNECT", "PROPFIND", "get", "FOO", "M-SEARCH") },
  );
}

export const CONTENT_TYPES = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
} as const;

/** Content types: the operation's own most of the time, else a near miss or something else entirely. */
export function contentType(own: string): fc.Arbitrary<Header[]> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant<Header[]>([["Content-Type", own]]) },
    { weight: 1, arbitrary: fc.constant<Header[]>([]) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(
          `${own}; charset=utf-8`,
          `${own}; charset=UTF-16`,
          `${own}; charset=latin1`,
          `${own}; charset="utf-8"`,
          `${own};;;`,
          "application/vnd.api+json",
          "application/json-patch+json",
          "text/plain",
          "text/html",
          "application/xml",
          "multipart/form-data; boundary=x",
          "application/x-www-form-urlencoded",
          "application/json",
          "*/*",
          "",
          "garbage",
          "application/json, text/plain",
        )
        .map((value) => [["Content-Type", value] as Header]),
    },
  );
}

/** Anything else a client may send: encodings, expectations, request ids, repeated and odd headers. */
export const extraHeaders: fc.Arbitrary<Header[]> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Header[]>([]) },
  fc.array(
    fc.oneof(
      fc.constantFrom<Header>(
        ["Content-Encoding", "gzip"],
        ["Content-Encoding", "deflate"],
        ["Content-Encoding", "br"],
        ["Content-Encoding", "identity"],
        ["Content-Encoding", "x-unknown"],
        ["Expect", "100-continue"],
        ["Expect", "something-else"],
        ["Accept", "text/html"],
        ["Accept-Charset", "utf-16"],
        ["Connection", "keep-alive"],
        ["Connection", "Upgrade"],
        ["Upgrade", "websocket"],
        ["X-Forwarded-For", "10.0.0.1, not-an-ip"],
        ["X-Request-Id", "v-000000000000000000"],
        ["X-HTTP-Method-Override", "DELETE"],
        ["Cookie", "a=b; __proto__=c"],
        ["Range", "bytes=0-1"],
        ["If-None-Match", "*"],
        ["__proto__", "x"],
        ["constructor", "x"],
        ["X-App-Id", "demo-app-id"],
      ),
      fc
        .tuple(
          fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
          fc.string({ unit: "binary-ascii", maxLength: 40 }).map((v) => v.replace(/[\r\n]/g, " ")),
        )
        .map((pair): Header => pair),
      // Values with bytes HTTP forbids (NUL, bare CR), names with spaces, very long values.
      fc.constantFrom<Header>(
        ["X-Bad", "a\u0000b"],
        ["X Bad", "x"],
        ["X-Long", "y".repeat(20_000)],
        ["X-Latin", "\u00e9\u00ff"],
      ),
    ),
    { minLength: 1, maxLength: 3 },
  ),
);

export function buildRequest(parts: {
  method: string;
  target: string;
  headers: readonly Header[];
  body?: string | undefined;
}): RawRequest {
  const request: RawRequest = { method: parts.method, target: parts.target, headers: parts.headers };
  // A GET or DELETE usually goes without a body; anything else with one when the case has one.
  if (parts.body !== undefined) request.body = Buffer.from(parts.body, "utf8");
  return request;
}

import fc from "fast-check";
import {
  hostileJson,
  hostileNumber,
  hostileObject,
  hostileString,
  type Json,
  JsonObject,
  nearly,
  nearObject,
} from "./json.js";
import { percentEncode, segment } from "./requests.js";

/** Near-valid bodies, ids and queries of the control API's calls. */

export const projectId = segment(["demo", "demo", "other", "nope"]);
export const appId = segment(["demo-app-id", "demo-readonly-app-id", "other-app-id", "nobody"]);

/** Replaces one value of a document, found by walking it with the given choices (an index at each level). */
function mutate(document: Json, choices: readonly number[], replacement: Json | undefined): Json {
  const [choice, ...rest] = choices;
  if (choice === undefined) return replacement ?? null;
  if (document instanceof JsonObject && document.entries.length > 0) {
    const at = choice % document.entries.length;
    const entries = document.entries.flatMap(([key, value], i) => {
      if (i !== at) return [[key, value] as const];
      if (rest.length === 0 && replacement === undefined) return [];
      return [[key, mutate(value, rest, replacement)] as const];
    });
    return new JsonObject(entries);
  }
  if (Array.isArray(document) && document.length > 0) {
    const at = choice % document.length;
    return document.map((value, i) => (i === at ? mutate(value, rest, replacement) : value));
  }
  return replacement ?? null;
}

/** A JavaScript value as a JSON tree (so a mutation can put a `__proto__` key anywhere). */
export function fromValue(value: unknown): Json {
  if (Array.isArray(value)) return value.map(fromValue);
  if (value !== null && typeof value === "object")
    return new JsonObject(Object.entries(value).map(([key, item]) => [key, fromValue(item)] as const));
  return value as Json;
}

/** A document with one value replaced, removed, or given an extra key. */
export function nearDocument(document: Json): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(document) },
    {
      weight: 6,
      arbitrary: fc
        .record({
          choices: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
          replacement: fc.option(fc.oneof(hostileJson, hostileObject), { nil: undefined, freq: 6 }),
        })
        .map(({ choices, replacement }) => mutate(document, choices, replacement)),
    },
  );
}

export const documentTemplate = (): Json =>
  fromValue({
    project: { id: "fuzz-new", name: "Fuzz" },
    api_keys: [{ app_id: "fuzz-new-app", app_token: "fuzz-new-token", permissions: ["api"] }],
    locations: [
      {
        id: "loc_fuzz",
        name: "Somewhere",
        shape: { type: "circle", format: "distance", distance: { center: "geo:52.2,21.0", radius: "1 km" } },
        created_at: "2026-01-01T00:00:00.000Z",
      },
    ],
    customers: [
      {
        id: "cust_fuzz",
        source_id: "fuzz@example.com",
        metadata: { a: 1 },
        created_at: "2026-01-01T00:00:00.000Z",
      },
    ],
  });

export const templateRequest = nearObject({
  template: nearly(fc.constantFrom("demo", "other", "nope")),
  project_id: fc.option(nearly(fc.constantFrom("fuzz-copy", "demo", "Bad Id")), { nil: undefined }),
  name: fc.option(nearly(fc.constantFrom("Copy")), { nil: undefined }),
});

export const clockBody = nearObject({
  advance_seconds: fc.option(nearly(fc.integer({ min: -100_000, max: 100_000 }), hostileNumber), {
    nil: undefined,
  }),
  set: fc.option(nearly(fc.constantFrom("2027-01-01T00:00:00Z", "2027-01-01", "tomorrow")), {
    nil: undefined,
  }),
});

export const keyBody = nearObject({
  app_id: fc.option(nearly(fc.constantFrom("fuzz-key", "demo-app-id", "other-app-id")), { nil: undefined }),
  app_token: fc.option(nearly(fc.constantFrom("secret")), { nil: undefined }),
  name: fc.option(nearly(fc.constantFrom("Key")), { nil: undefined }),
  permissions: fc.option(nearly(fc.constantFrom<Json>(["api"], ["locations", "nope"], [])), {
    nil: undefined,
  }),
  ip_allowlist: fc.option(
    nearly(fc.constantFrom<Json>(["10.0.0.0/8"], ["::1"], ["999.1.1.1"], ["10.0.0.0/99"])),
    {
      nil: undefined,
    },
  ),
});

export const faultBody = nearObject({
  method: fc.option(nearly(fc.constantFrom("GET", "post", "*")), { nil: undefined }),
  path: nearly(
    fc.constantFrom("/v1/locations/loc_demo_circle", "/v1/**", "/v1/locations/{id}", "/*"),
    fc.constantFrom("no-slash", "/a{b", "/a?b"),
  ),
  action: nearly(fc.constantFrom("error", "error", "error", "delay", "drop", "truncate")),
  status: fc.option(nearly(fc.constantFrom(400, 429, 503, 599), fc.constantFrom(600, 200, 503.5)), {
    nil: undefined,
    freq: 10,
  }),
  error: fc.option(
    nearly(nearObject({ key: nearly(fc.constantFrom("boom")), message: nearly(hostileString) })),
    {
      nil: undefined,
    },
  ),
  headers: fc.option(
    nearly(
      fc
        .array(
          fc.tuple(
            fc.constantFrom(
              "Retry-After",
              "X-Extra",
              "Content-Type",
              "Trailer",
              "Transfer-Encoding",
              "Bad Name",
              "__proto__",
            ),
            fc.oneof(fc.constantFrom<Json>("1", "a\nb", "a\u0000b", "\u00e9", "\u20ac", 5), hostileString),
          ),
          { maxLength: 3 },
        )
        .map((entries): Json => new JsonObject(entries)),
    ),
    { nil: undefined },
  ),
  latency_ms: fc.option(nearly(fc.constantFrom(0, 1, 500), fc.constantFrom(120_001, -1)), { nil: undefined }),
  times: fc.option(nearly(fc.constantFrom(1, 2), fc.constantFrom(0, 1.5)), { nil: undefined }),
});

export const settingsBody = nearObject({
  v2_auth_mode: fc.option(nearly(fc.constantFrom("strict", "either", null, "loose")), { nil: undefined }),
  token_grace_seconds: fc.option(nearly(fc.constantFrom(0, 60, 86_401, -1, null)), { nil: undefined }),
  rate_limit: fc.option(
    nearly(
      nearObject({
        limit: nearly(fc.constantFrom(1, 1000, 0, 1_000_001)),
        window_seconds: fc.option(nearly(fc.constantFrom(60, 0)), { nil: undefined }),
      }),
    ),
    { nil: undefined },
  ),
  journal_size: fc.option(nearly(fc.constantFrom(0, 10, 100_000, 100_001, null)), { nil: undefined }),
  audience_tier_structures: fc.option(
    nearly(fc.constantFrom(["lts_d0000000000000001"], [], [""], ["x".repeat(201)], null)),
    { nil: undefined },
  ),
});

export const journalQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom("method", "path", "status", "since", "until", "limit", "nope", "__proto__"),
      fc.oneof(
        fc.constantFrom(
          "GET",
          "GET,POST",
          "/v1/**",
          "404",
          "4xx",
          "2026-11-20T10:00:00Z",
          "10",
          "0",
          "abc",
          "",
        ),
        hostileString.map(percentEncode),
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

export const VIEWS = [
  "customers",
  "publications",
  "events",
  "vouchers",
  "campaigns",
  "locations",
  "tier-structures",
  "incentives",
  "earning-rules",
  "event-schemas",
  "segments",
];

export const viewQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "limit",
        "offset",
        "name",
        "code",
        "holder_id",
        "active",
        "nope",
        "__proto__",
        "constructor",
      ),
      fc.oneof(
        fc.constantFrom("1", "0", "10001", "-1", "null", "true", "x", "1e3"),
        hostileString.map(percentEncode),
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

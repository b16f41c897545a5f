import fc from "fast-check";
import type { RawRequest } from "../helpers/raw-http.js";
import {
  deepNesting,
  hostileJson,
  hostileNumber,
  hostileObject,
  hostileString,
  type Json,
  JsonObject,
  nearly,
  nearObject,
  object,
  toText,
} from "./json.js";
import {
  buildRequest,
  CONTENT_TYPES,
  contentType,
  extraHeaders,
  type Header,
  method,
  percentEncode,
  segment,
  target,
} from "./requests.js";

/**
 * Generated requests for each of the six operations: near-valid bodies (each field usually right, sometimes
 * hostile or missing, with extra and repeated keys), credentials that are usually right, content types, odd
 * targets and headers. A case knows the free-form objects it sent, so a success can be checked for storing them.
 */
export interface OperationCase {
  request: RawRequest;
  /** The body as text, for the checks that compare what was stored with what was sent. */
  body: string | undefined;
}

const DEMO_KEYS: Header[] = [
  ["X-App-Id", "demo-app-id"],
  ["X-App-Token", "demo-app-token"],
];

/** Credentials: the demo key pair most of the time, else every way of getting them wrong. */
function credentials(token: string, v2 = false): fc.Arbitrary<Header[]> {
  const bearer: Header = ["Authorization", `Bearer ${token}`];
  return fc.oneof(
    { weight: 40, arbitrary: fc.constant<Header[]>(v2 ? [...DEMO_KEYS, bearer] : DEMO_KEYS) },
    { weight: 2, arbitrary: fc.constant<Header[]>(v2 ? DEMO_KEYS : [bearer]) },
    {
      weight: 4,
      arbitrary: fc.constantFrom<Header[]>(
        [],
        [["X-App-Id", "demo-app-id"]],
        [["X-App-Token", "demo-app-token"]],
        [
          ["X-App-Id", "demo-app-id"],
          ["X-App-Token", "wrong"],
        ],
        [
          ["X-App-Id", "nobody"],
          ["X-App-Token", "demo-app-token"],
        ],
        [
          ["X-App-Id", "demo-readonly-app-id"],
          ["X-App-Token", "demo-readonly-app-token"],
        ],
        [["X-App-Id", "other-app-id"], ["X-App-Token", "other-app-token"], bearer],
        [["Authorization", "Bearer"]],
        [["Authorization", "Basic ZGVtbzpkZW1v"]],
        [["Authorization", `Bearer ${token} extra`]],
        [["Authorization", `bearer ${token}`]],
        [["X-Service-OAuth", token]],
        [
          ["X-App-Id", "demo-app-id"],
          ["X-App-Id", "other-app-id"],
          ["X-App-Token", "demo-app-token"],
        ],
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(hostileString, hostileString).map(([id, secret]): Header[] => [
        ["X-App-Id", id.replace(/[^\x20-\x7e]/g, "").slice(0, 2000)],
        ["X-App-Token", secret.replace(/[^\x20-\x7e]/g, "").slice(0, 2000)],
      ]),
    },
  );
}

interface Shape {
  method: string;
  segments: fc.Arbitrary<string[]>;
  contentType: string;
  body: fc.Arbitrary<string> | undefined;
  v2?: boolean;
}

function operationCase(shape: Shape, token: string): fc.Arbitrary<OperationCase> {
  return fc
    .record({
      method: method(shape.method),
      target: target(shape.segments),
      credentials: credentials(token, shape.v2),
      contentType: contentType(shape.contentType),
      extra: extraHeaders,
      body:
        shape.body === undefined
          ? fc.option(fc.constant("{}"), { freq: 5 })
          : fc.option(shape.body, { freq: 12 }),
    })
    .map((parts) => {
      const body = parts.body ?? undefined;
      const headers = [
        ...parts.credentials,
        ...(body === undefined ? [] : parts.contentType),
        ...parts.extra,
      ];
      return { request: buildRequest({ method: parts.method, target: parts.target, headers, body }), body };
    });
}

// --- the six operations -------------------------------------------------------------------------------------

const scopeValue = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom("api", "loyalties", "api locations", "events loyalties", "client_api"),
  },
  { weight: 2, arbitrary: fc.constantFrom("vouchers,campaigns", "", " ", "api  api", "API", "nope") },
  { weight: 2, arbitrary: hostileString },
);

const formField = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
  fc.tuple(name, value).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);

const tokenForm: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({
        grant: fc.oneof(
          { weight: 6, arbitrary: fc.constant("client_credentials") },
          { weight: 2, arbitrary: hostileString },
        ),
        scope: scopeValue,
        extra: fc.array(
          formField(fc.constantFrom("__proto__", "constructor", "scope", "grant_type", "x"), hostileString),
          {
            maxLength: 3,
          },
        ),
      })
      .map(({ grant, scope, extra }) =>
        [`grant_type=${percentEncode(grant)}`, `scope=${percentEncode(scope)}`, ...extra].join("&"),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("%", "a=%ZZ", "grant_type=client_credentials&scope=api%", "&&&", "="),
  },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 150 }, (_, i) => `f${i}=1`).join("&")) },
  { weight: 1, arbitrary: hostileJson.map((value) => JSON.stringify(String(value))) },
);

const customer: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 8,
    arbitrary: nearObject({
      source_id: nearly(fc.constantFrom("alice@example.com", "new@example.com", "x", "cust_demo_alice")),
      id: fc.option(fc.constantFrom("cust_demo_erin", "cust_demo_alice", "cust_nope"), { nil: undefined }),
      name: fc.option(hostileString, { nil: undefined }),
      email: fc.option(hostileString, { nil: undefined }),
      birthdate: fc.option(fc.constantFrom("1990-04-12", "1990-04-12", "1990-13-40"), {
        nil: undefined,
        freq: 2,
      }),
      address: fc.option(nearObject({ city: nearly(hostileString), country: nearly(fc.constant("PL")) }), {
        nil: undefined,
      }),
      metadata: fc.option(hostileObject, { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom<Json>("cust_demo_erin", "someone@example.com", "") },
  { weight: 1, arbitrary: hostileJson },
);

const membersBody = nearObject({
  customer,
  voucher: fc.option(
    nearly(fc.constantFrom("DEMO-V8TK-XZ5F", "DEMO-HELD-2345", "DEMO-NACT-2222", "DEMO-LATE-2727", "NOPE")),
    { nil: undefined },
  ),
  source_id: fc.option(nearly(fc.constantFrom("crm-1", "crm-signup-0001")), { nil: undefined }),
  metadata: fc.option(nearly(hostileObject), { nil: undefined }),
  channel: fc.option(nearly(fc.constantFrom("Website", "API")), { nil: undefined }),
});

const eventsBody = nearObject({
  event: nearly(
    fc.constantFrom("user_subscribed", "cart_abandoned", "referral_converted", "loyalty_bonus", "nope"),
  ),
  customer,
  metadata: nearly(
    fc.oneof(
      hostileObject,
      fc.constant(object([["plan", "pro"]])),
      fc
        .tuple(hostileObject, hostileJson)
        .map(([rest, plan]) => object([["plan", plan], ...(rest instanceof JsonObject ? rest.entries : [])])),
    ),
  ),
  referral: fc.option(
    nearObject({
      code: nearly(fc.constantFrom("REF-ALICE", "DEMO-HELD-2345")),
      referrer_id: nearly(hostileString),
    }),
    {
      nil: undefined,
    },
  ),
  loyalty: fc.option(nearObject({ code: nearly(fc.constantFrom("DEMO-HELD-2345", "DEMO-HELD-3456")) }), {
    nil: undefined,
  }),
});

const points = (valid: fc.Arbitrary<Json>) => nearly(valid, hostileNumber);

const qualificationRules = fc.oneof(
  nearObject({
    type: nearly(fc.constant("POINTS")),
    min_value: points(fc.integer({ min: 0, max: 100_000 })),
    max_value: fc.option(points(fc.integer({ min: 0, max: 10_000_000 })), { nil: undefined }),
    segment: fc.option(fc.constant(null), { nil: undefined, freq: 8 }),
  }),
  nearObject({
    type: nearly(fc.constant("SEGMENT")),
    segment: nearly(nearObject({ id: nearly(fc.constantFrom("seg_demo_vip", "seg_nope")) })),
  }),
);

const tierBody = nearObject({
  name: nearly(fc.oneof(fc.constantFrom("Gold", "Platinum"), hostileString)),
  qualification_rules: nearly(qualificationRules),
  downgrade: fc.option(nearly(nearObject({ type: nearly(fc.constantFrom("INHERIT", "NO_DOWNGRADE")) })), {
    nil: undefined,
  }),
  metadata: fc.option(nearly(hostileObject), { nil: undefined }),
});

/** A near-valid body as text; now and then a whole body that is anything at all. */
function jsonText(valid: fc.Arbitrary<Json>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: valid.map(toText) },
    { weight: 1, arbitrary: fc.oneof(hostileJson, deepNesting).map(toText) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "null", "[]", "{", "{}}", "\ufeff{}", "NaN", '{"a":1,}', "1e400"),
    },
  );
}

export function operationCases(token: string): Record<string, fc.Arbitrary<OperationCase>> {
  return {
    "POST /v1/oauth/token": operationCase(
      {
        method: "POST",
        segments: fc.tuple(fc.constant("v1"), fc.constant("oauth"), segment(["token"])).map((s) => [...s]),
        contentType: CONTENT_TYPES.form,
        body: tokenForm,
      },
      token,
    ),
    "GET /v1/locations/{locationId}": operationCase(
      {
        method: "GET",
        segments: fc
          .tuple(segment(["loc_demo_circle", "loc_demo_polygon", "loc_other_circle", "loc_nope"]))
          .map(([id]) => ["v1", "locations", id]),
        contentType: CONTENT_TYPES.json,
        body: undefined,
      },
      token,
    ),
    "POST /v1/loyalties/{campaignId}/members": operationCase(
      {
        method: "POST",
        segments: fc
          .tuple(
            segment([
              "camp_demo_loyalty",
              "Demo Loyalty Program",
              "camp_demo_ondemand",
              "camp_demo_discounts",
              "camp_nope",
            ]),
          )
          .map(([id]) => ["v1", "loyalties", id, "members"]),
        contentType: CONTENT_TYPES.json,
        body: jsonText(membersBody),
      },
      token,
    ),
    "POST /v1/events": operationCase(
      {
        method: "POST",
        segments: fc.constant(["v1", "events"]),
        contentType: CONTENT_TYPES.json,
        body: jsonText(eventsBody),
      },
      token,
    ),
    "POST /v2/loyalties/tier-structures/{id}/tiers": operationCase(
      {
        method: "POST",
        segments: fc
          .tuple(
            segment(["lts_d0000000000000001", "lts_d0000000000000002", "lts_d0000000000000003", "lts_nope"]),
          )
          .map(([id]) => ["v2", "loyalties", "tier-structures", id, "tiers"]),
        contentType: CONTENT_TYPES.json,
        body: jsonText(tierBody),
        v2: true,
      },
      token,
    ),
    "DELETE /v2/loyalties/incentives/{id}": operationCase(
      {
        method: "DELETE",
        segments: fc
          .tuple(
            segment([
              "linc_d0000000000000001",
              "linc_d0000000000000002",
              "linc_d00000000000000de",
              "linc_d0000000000000101",
              "linc_ffff",
              "nope",
            ]),
          )
          .map(([id]) => ["v2", "loyalties", "incentives", id]),
        contentType: CONTENT_TYPES.json,
        body: fc.option(jsonText(hostileObject), { nil: undefined }).map((b) => b ?? "{}"),
        v2: true,
      },
      token,
    ),
  };
}

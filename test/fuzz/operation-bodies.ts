import fc from "fast-check";
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
import { percentEncode } from "./requests.js";

/** Near-valid bodies of the operations that have them: each field usually right, sometimes hostile or missing. */

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

export const tokenForm: fc.Arbitrary<string> = fc.oneof(
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

export const membersBody = nearObject({
  customer,
  voucher: fc.option(
    nearly(fc.constantFrom("DEMO-V8TK-XZ5F", "DEMO-HELD-2345", "DEMO-NACT-2222", "DEMO-LATE-2727", "NOPE")),
    { nil: undefined },
  ),
  source_id: fc.option(nearly(fc.constantFrom("crm-1", "crm-signup-0001")), { nil: undefined }),
  metadata: fc.option(nearly(hostileObject), { nil: undefined }),
  channel: fc.option(nearly(fc.constantFrom("Website", "API")), { nil: undefined }),
});

export const eventsBody = nearObject({
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
  // The generally available form (docs/fidelity.md): the range nested under `points`, numbers up to 10^9.
  nearObject({
    type: nearly(fc.constantFrom("POINTS", "POINTS_AND_SEGMENT")),
    points: nearly(
      nearObject({
        min_value: points(fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 1e9 }))),
        max_value: fc.option(points(fc.integer({ min: 0, max: 1_000_000_000 })), { nil: undefined }),
      }),
    ),
    segment: fc.option(nearly(nearObject({ id: nearly(fc.constantFrom("seg_demo_vip", "seg_nope")) })), {
      nil: undefined,
    }),
  }),
);

export const tierBody = nearObject({
  name: nearly(fc.oneof(fc.constantFrom("Gold", "Platinum"), hostileString)),
  qualification_rules: nearly(qualificationRules),
  downgrade: fc.option(nearly(nearObject({ type: nearly(fc.constantFrom("INHERIT", "NO_DOWNGRADE")) })), {
    nil: undefined,
  }),
  metadata: fc.option(nearly(hostileObject), { nil: undefined }),
});

/** A near-valid body as text; now and then a whole body that is anything at all. */
export function jsonText(valid: fc.Arbitrary<Json>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: valid.map(toText) },
    { weight: 1, arbitrary: fc.oneof(hostileJson, deepNesting).map(toText) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "null", "[]", "{", "{}}", "\ufeff{}", "NaN", '{"a":1,}', "1e400"),
    },
  );
}

import fc from "fast-check";
import { OPERATIONS, type OperationName, operation } from "../../src/http/operations/table.js";
import type { RawRequest } from "../helpers/raw-http.js";
import { hostileObject, hostileString } from "./json.js";
import { eventsBody, jsonText, membersBody, tierBody, tokenForm } from "./operation-bodies.js";
import {
  buildRequest,
  CONTENT_TYPES,
  contentType,
  extraHeaders,
  type Header,
  method,
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

/** What a row of the operation table does not say: where its paths go and what its bodies look like. */
interface Shape {
  segments: fc.Arbitrary<string[]>;
  body: fc.Arbitrary<string> | undefined;
}

/** The method, the credentials it wants (v2 or not) and the body type come from the operation table's row. */
function operationCase(name: OperationName, shape: Shape, token: string): fc.Arbitrary<OperationCase> {
  const row = operation(name);
  return fc
    .record({
      method: method(row.method),
      target: target(shape.segments),
      credentials: credentials(token, row.auth.v2),
      contentType: contentType(row.body === "form" ? CONTENT_TYPES.form : CONTENT_TYPES.json),
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

/** One generator per row of the operation table; a row without one here does not compile. */
export function operationCases(token: string): Record<OperationName, fc.Arbitrary<OperationCase>> {
  const shapes: Record<OperationName, Shape> = {
    generateToken: {
      segments: fc.tuple(fc.constant("v1"), fc.constant("oauth"), segment(["token"])).map((s) => [...s]),
      body: tokenForm,
    },
    getLocation: {
      segments: fc
        .tuple(segment(["loc_demo_circle", "loc_demo_polygon", "loc_other_circle", "loc_nope"]))
        .map(([id]) => ["v1", "locations", id]),
      body: undefined,
    },
    addMember: {
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
      body: jsonText(membersBody),
    },
    trackEvent: {
      segments: fc.constant(["v1", "events"]),
      body: jsonText(eventsBody),
    },
    createTier: {
      segments: fc
        .tuple(
          segment(["lts_d0000000000000001", "lts_d0000000000000002", "lts_d0000000000000003", "lts_nope"]),
        )
        .map(([id]) => ["v2", "loyalties", "tier-structures", id, "tiers"]),
      body: jsonText(tierBody),
    },
    deleteIncentive: {
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
      body: fc.option(jsonText(hostileObject), { nil: undefined }).map((b) => b ?? "{}"),
    },
  };
  return Object.fromEntries(
    OPERATIONS.map((row) => [row.name, operationCase(row.name, shapes[row.name], token)]),
  ) as Record<OperationName, fc.Arbitrary<OperationCase>>;
}

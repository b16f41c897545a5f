import fc from "fast-check";
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

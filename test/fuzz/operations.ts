import fc from "fast-check";
import {
  OPERATIONS,
  type Operation,
  type OperationName,
  operation,
} from "../../src/http/operations/table.js";
import type { RawRequest } from "../helpers/raw-http.js";
import { demoIds } from "../helpers/world.js";
import { hostileObject, hostileString, type Json, nearly, nearObject } from "./json.js";
import { eventsBody, jsonText, membersBody, tierBody, tokenForm } from "./operation-bodies.js";
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
 * Generated requests for each operation of the table: near-valid bodies (each field usually right, sometimes
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

/** Where a row's requests go and what their bodies look like. */
interface Shape {
  segments: fc.Arbitrary<string[]>;
  body: fc.Arbitrary<string> | undefined;
}

/** The example's value, nearly: each field of an object usually as in the example, else hostile or missing. */
function nearValue(value: unknown): fc.Arbitrary<Json> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fc.constant(value as Json);
  const fields = Object.entries(value as Record<string, unknown>);
  return nearObject(Object.fromEntries(fields.map(([name, field]) => [name, nearly(nearValue(field))])));
}

/** Form fields, each usually the example's value, else hostile, with now and then an extra one. */
function nearForm(fields: Record<string, string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      ...Object.entries(fields).map(([name, value]) =>
        fc
          .oneof({ weight: 8, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: hostileString })
          .map((sent) => `${percentEncode(name)}=${percentEncode(sent)}`),
      ),
    )
    .chain((parts) =>
      fc
        .array(fc.tuple(fc.constantFrom("__proto__", "constructor", "x"), hostileString), { maxLength: 2 })
        .map((extra) => [...parts, ...extra.map(([k, v]) => `${k}=${percentEncode(v)}`)].join("&")),
    );
}

/**
 * The shape a row's own declaration gives: its path, each parameter the demo's record of its example call (or
 * an id no project has); its body near the example's, as the row reads one. Every row has one, a new row too.
 */
function derivedShape(row: Operation): Shape {
  const { params, body } = row.example(demoIds());
  const parts = row.path.split("/").filter(Boolean);
  const segments = fc
    .tuple(
      ...parts.map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        return name === undefined ? fc.constant(part) : segment([params[name] ?? "", "nope"]);
      }),
    )
    .map((sent) => [...sent]);
  if (row.body === "none" || body === undefined)
    return { segments, body: row.body === "none" ? undefined : fc.constant("{}") };
  return {
    segments,
    body: row.body === "form" ? nearForm(body as Record<string, string>) : jsonText(nearValue(body)),
  };
}

/**
 * Where a row's derived shape is not enough: bodies and path values that know the service's rules and the
 * fixtures' records (scopes the token endpoint weighs, campaigns looked up by name, voucher codes in every state,
 * segment tiers, ids of another project). Written for these operations because each reached rules the derived
 * shape seldom reaches (FUZZ_STATS=1 shows what a target reaches); a new row is fuzzed by its derived shape.
 */
const REFINED: { readonly [N in OperationName]?: Partial<Shape> } = {
  generateToken: { body: tokenForm },
  getLocation: {
    segments: fc
      .tuple(segment(["loc_demo_circle", "loc_demo_polygon", "loc_other_circle", "loc_nope"]))
      .map(([id]) => ["v1", "locations", id]),
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
  trackEvent: { body: jsonText(eventsBody) },
  createTier: {
    segments: fc
      .tuple(segment(["lts_d0000000000000001", "lts_d0000000000000002", "lts_d0000000000000003", "lts_nope"]))
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
  // The same records by their generally available names, in every state, and an incentive's id where a
  // benefit's is due.
  deleteBenefit: {
    segments: fc
      .tuple(
        segment([
          "lben_d0000000000000001",
          "lben_d0000000000000002",
          "lben_d00000000000000de",
          "lben_d0000000000000101",
          "lben_ffff",
          "linc_d0000000000000001",
          "nope",
        ]),
      )
      .map(([id]) => ["v2", "loyalties", "benefits", id]),
    body: fc.option(jsonText(hostileObject), { nil: undefined }).map((b) => b ?? "{}"),
  },
};

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

/** A row's generator from its declaration alone, as a new row's is. */
export const derivedCases = (row: Operation, token: string) =>
  operationCase(row.name, derivedShape(row), token);

/** One generator per row of the operation table: its derived shape, refined where REFINED says. */
export function operationCases(token: string): Record<OperationName, fc.Arbitrary<OperationCase>> {
  return Object.fromEntries(
    OPERATIONS.map((row) => [
      row.name,
      operationCase(row.name, { ...derivedShape(row), ...REFINED[row.name] }, token),
    ]),
  ) as Record<OperationName, fc.Arbitrary<OperationCase>>;
}

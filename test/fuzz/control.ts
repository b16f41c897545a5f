import fc from "fast-check";
import type { RawRequest } from "../helpers/raw-http.js";
import {
  appId,
  clockBody,
  documentTemplate,
  faultBody,
  fromValue,
  journalQuery,
  keyBody,
  nearDocument,
  projectId,
  settingsBody,
  templateRequest,
  VIEWS,
  viewQuery,
} from "./control-bodies.js";
import { deepNesting, hostileJson, type Json, toText } from "./json.js";
import { extraHeaders, type Header, segment } from "./requests.js";

/**
 * Generated calls of the control API (/__mock): every route with its methods and others, near-valid bodies
 * (a project document or state export with one value changed, clock moves, keys, fault rules, settings), query
 * strings for the journal and the views, and the admin token right, wrong or missing.
 */
export const ADMIN_TOKEN = "fuzz-admin-token";

export interface ControlCase {
  request: RawRequest;
}

interface Route {
  /** How often the route is picked, relative to the others: the routes with the most to get wrong, most. */
  weight: number;
  methods: readonly string[];
  target: fc.Arbitrary<string>;
  body?: fc.Arbitrary<Json>;
}

function routes(state: Json): Route[] {
  const p = (suffix = "") => projectId.map((id) => `/__mock/projects/${id}${suffix}`);
  const keyAction = fc
    .tuple(projectId, appId, fc.constantFrom("", "/block", "/unblock", "/regenerate", "/nope"))
    .map(([id, key, action]) => `/__mock/projects/${id}/keys/${key}${action}`);
  const view = fc
    .tuple(
      projectId,
      fc.constantFrom(...VIEWS, "nope"),
      fc.option(segment(["cust_demo_alice", "DEMO-HELD-2345", "x"])),
      viewQuery,
    )
    .map(
      ([id, name, record, query]) => `/__mock/projects/${id}/${name}${record ? `/${record}` : ""}${query}`,
    );
  const misc = fc.constantFrom("/__mock/health", "/__mock/openapi.json", "/__mock/nope", "/__mock");
  const newProject = fc.oneof(templateRequest, nearDocument(documentTemplate()));
  return [
    { weight: 1, methods: ["GET"], target: misc },
    { weight: 2, methods: ["GET", "POST"], target: fc.constant("/__mock/projects"), body: newProject },
    { weight: 1, methods: ["GET", "DELETE"], target: p() },
    { weight: 1, methods: ["POST"], target: fc.oneof(p("/reset"), fc.constant("/__mock/reset")) },
    { weight: 3, methods: ["GET", "PUT", "PUT"], target: p("/state"), body: nearDocument(state) },
    { weight: 2, methods: ["GET", "POST"], target: p("/clock"), body: clockBody },
    { weight: 2, methods: ["GET", "POST"], target: p("/keys"), body: keyBody },
    { weight: 1, methods: ["GET", "DELETE", "POST"], target: keyAction },
    {
      weight: 1,
      methods: ["GET", "DELETE"],
      target: fc.tuple(p("/requests"), journalQuery).map(([t, q]) => t + q),
    },
    { weight: 4, methods: ["GET", "POST", "POST", "DELETE"], target: p("/faults"), body: faultBody },
    { weight: 1, methods: ["GET", "DELETE"], target: p("/faults/flt_0123456789abcdef01") },
    { weight: 2, methods: ["GET", "PUT", "PATCH"], target: p("/settings"), body: settingsBody },
    { weight: 1, methods: ["GET"], target: view },
  ];
}

const adminHeader: fc.Arbitrary<Header[]> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<Header[]>([["X-Mock-Admin-Token", ADMIN_TOKEN]]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Header[]>(
      [],
      [["X-Mock-Admin-Token", "wrong"]],
      [["X-Mock-Admin-Token", ""]],
      [["X-Mock-Admin-Token", `${ADMIN_TOKEN} `]],
      [
        ["X-Mock-Admin-Token", ADMIN_TOKEN],
        ["X-Mock-Admin-Token", ADMIN_TOKEN],
      ],
    ),
  },
);

/** Control calls; `state` is the demo project's exported state, the base of near-valid state imports. */
export function controlCases(state: unknown): fc.Arbitrary<ControlCase> {
  const table = routes(fromValue(state));
  return fc
    .oneof(...table.map((route) => ({ weight: route.weight, arbitrary: fc.constant(route) })))
    .chain((route) =>
      fc.record({
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constantFrom(...route.methods) },
          {
            weight: 1,
            arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
          },
        ),
        target: route.target,
        body: route.body
          ? fc.oneof(
              { weight: 12, arbitrary: route.body.map(toText) },
              { weight: 1, arbitrary: fc.oneof(hostileJson, deepNesting).map(toText) },
              { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", '{"a":1,}') },
            )
          : fc.constant(undefined),
        admin: adminHeader,
        contentType: fc.oneof(
          { weight: 12, arbitrary: fc.constant("application/json") },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "text/plain",
              "application/x-www-form-urlencoded",
              "application/json; charset=utf-16",
            ),
          },
        ),
        extra: extraHeaders,
      }),
    )
    .map(({ method, target, body, admin, contentType, extra }) => {
      const sendsBody = body !== undefined && method !== "GET" && method !== "HEAD" && method !== "DELETE";
      const headers: Header[] = [
        ...admin,
        ...(sendsBody ? [["Content-Type", contentType] as Header] : []),
        ...extra,
      ];
      const request: RawRequest = { method, target, headers };
      if (sendsBody) request.body = Buffer.from(body, "utf8");
      return { request };
    });
}

import { z } from "zod";
import type { AuthContext, AuthPolicy } from "../../domain/auth/authenticate.js";
import { issueToken } from "../../domain/auth/tokens.js";
import { eventResponse, trackEvent, trackEventBodySchema } from "../../domain/events/track-event.js";
import { deleteIncentive } from "../../domain/incentives/delete-incentive.js";
import { assignCard, assignCardBodySchema } from "../../domain/members/assign-card.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import { hexId } from "../../domain/shared/schema-parts.js";
import { createTier, tierAnswer, tierBodySchema } from "../../domain/tiers/create-tier.js";
import { voucherResponse } from "../../domain/vouchers/voucher-view.js";
import type { Notify } from "../../domain/webhooks/notification.js";
import type { HttpMethod } from "../route.js";

/**
 * The operations, one row each, in the spirit of stripe-mock's single route table: a row holds everything about
 * its operation (name, title, method, path, credentials and scopes, body, input, use case). The mount
 * (operations/mount.ts), authentication, the control API's list of operations, the help texts' count, the verify
 * scenario, the generated-input (fuzz) targets and the benchmark scenarios all read it. Adding an operation is one
 * row here, one use case in the domain, its fixtures and its tests; docs/internals/adding-an-operation.md lists
 * every file, and test/api/operation-table.test.ts fails until each knows the row.
 */

/** How the operation reads a body: JSON (415 for another type), a form (the token endpoint), or none at all. */
type BodyKind = "json" | "form" | "none";

/** What a handler has once the request is authenticated and its input parsed. */
export interface Call<Input> {
  registry: ProjectRegistry;
  auth: AuthContext;
  input: Input;
  /** Hands the notifications the operation caused to the webhooks (only ever called on success). */
  notify: Notify;
}

/**
 * What an example call is built from: records a project holds (the demo's, a bench project's, a sandbox's), by id,
 * and a number a caller changes between calls wherever a call creates what must not exist yet.
 */
export interface ExampleIds {
  campaign: string;
  location: string;
  /** An event type the project's schemas accept with no metadata required. */
  event: string;
  tierStructure: string;
  incentive: string;
  /** A customer's source id. */
  customer: string;
  n: number;
}

/** A plain successful call of an operation: its path parameters and its body (a form's fields for a form). */
interface ExampleCall {
  params: Readonly<Record<string, string>>;
  body?: unknown;
}

interface OperationRow<Input> {
  /** What people call it: the dashboard's lists and forms, the journal's sentences. */
  title: string;
  method: HttpMethod;
  /** The path as the contract writes it, `{name}` for a parameter. */
  path: string;
  auth: AuthPolicy;
  body: BodyKind;
  /**
   * The body holds 64-bit integers (the tier rules' min_value and max_value): integers past 2^53 are read exactly,
   * as bigints, rather than rounded as JSON.parse rounds them (platform/exact-json.ts). Only these bodies pay for it.
   */
  exactIntegers?: boolean;
  /**
   * Parses `{ params, body }` once, at the edge (400 invalid_payload with the property in `details`). Absent where
   * there is nothing to check beyond the path: the operation then gets the raw params and body.
   */
  input?: z.ZodType<Input>;
  /** The use case and the response shaper: what the handler answers with on success. */
  run(call: Call<Input>): unknown;
  /** The client side: a plain call of it that succeeds, for the clients and tests that call every operation. */
  example(ids: ExampleIds): ExampleCall;
}

export type Operation = OperationRow<unknown> & { name: OperationName };

/** Rows are typed one by one, so that each row's input schema and use case agree. */
function row<Input>(definition: OperationRow<Input>): OperationRow<Input> {
  return definition;
}

/** Most operations accept a token too; the token endpoint takes the key pair only. */
function auth(scopes: readonly string[], extra: Partial<AuthPolicy> = {}): AuthPolicy {
  return { acceptsToken: true, acceptsServiceOAuth: false, v2: false, scopes, ...extra };
}

interface RawInput {
  params: Record<string, string>;
  body: unknown;
}

const TABLE = {
  generateToken: row<RawInput>({
    title: "OAuth token",
    method: "POST",
    path: "/v1/oauth/token",
    auth: auth([], { acceptsToken: false }),
    // The form's fields are judged by issueToken in the service's order (grant_type before scope), not here.
    body: "form",
    run: ({ registry, auth: { project, key }, input }) => {
      if (!key) throw new Error("token endpoint reached without a key pair");
      return issueToken(registry, project, key, (input.body ?? {}) as Record<string, unknown>);
    },
    example: () => ({ params: {}, body: { grant_type: "client_credentials", scope: "api" } }),
  }),
  addMember: row({
    title: "Assign a loyalty card",
    method: "POST",
    path: "/v1/loyalties/{campaignId}/members",
    auth: auth(["api", "loyalties"]),
    body: "json",
    input: z.object({ params: z.object({ campaignId: z.string().min(1) }), body: assignCardBodySchema }),
    run: ({ registry, auth: { project }, input, notify }) => {
      const assigned = assignCard(project, input.params.campaignId, input.body, registry.defaults.caps);
      notify(assigned.notifications);
      return voucherResponse(assigned.voucher);
    },
    example: (ids) => ({
      params: { campaignId: ids.campaign },
      body: { customer: { source_id: ids.customer } },
    }),
  }),
  getLocation: row<RawInput>({
    title: "Get a location",
    method: "GET",
    path: "/v1/locations/{locationId}",
    auth: auth(["api", "locations"], { acceptsServiceOAuth: true }),
    body: "none",
    run: ({ auth: { project }, input }) => project.locations.get(String(input.params.locationId)),
    example: (ids) => ({ params: { locationId: ids.location } }),
  }),
  trackEvent: row({
    title: "Custom event",
    method: "POST",
    path: "/v1/events",
    auth: auth(["api", "events"]),
    body: "json",
    input: z.object({ params: z.object({}), body: trackEventBodySchema }),
    run: ({ registry, auth: { project }, input, notify }) => {
      const { event, customer, notifications } = trackEvent(project, input.body, registry.defaults.caps);
      notify(notifications);
      return eventResponse(event, customer);
    },
    example: (ids) => ({ params: {}, body: { event: ids.event, customer: { source_id: ids.customer } } }),
  }),
  createTier: row({
    title: "Create a tier",
    method: "POST",
    path: "/v2/loyalties/tier-structures/{id}/tiers",
    auth: auth(["api", "loyalties"], { v2: true }),
    body: "json",
    exactIntegers: true,
    // The structure id is not checked for shape: any unknown id is the structure's 404 (the order of docs/reference/operations.md, "Creating a tier: the rules").
    // The body is the beta's form or the generally available one, and the answer is in the body's form
    // (docs/fidelity.md, "Loyalty v2 as generally available").
    input: z.object({ params: z.object({ id: z.string() }), body: tierBodySchema }),
    run: ({ auth: { project }, input }) =>
      tierAnswer(createTier(project, input.params.id, input.body), input.body.form),
    example: (ids) => ({
      params: { id: ids.tierStructure },
      body: {
        name: `Tier ${ids.n}`,
        qualification_rules: { type: "POINTS", min_value: ids.n * 1000, max_value: ids.n * 1000 + 999 },
      },
    }),
  }),
  deleteIncentive: row({
    title: "Delete an incentive",
    method: "DELETE",
    path: "/v2/loyalties/incentives/{id}",
    auth: auth(["api", "loyalties"], { v2: true }),
    // The spec says DELETE has no body; one sent anyway is read like any JSON body (415 in another type) and
    // otherwise ignored, as docs/fidelity.md, "A body on DELETE", says of every operation.
    body: "json",
    // The id must match the contract's pattern before it is looked up (400, not 404).
    input: z.object({ params: z.object({ id: hexId("linc") }) }),
    run: ({ auth: { project }, input }) => deleteIncentive(project, input.params.id),
    example: (ids) => ({ params: { id: ids.incentive } }),
  }),
} as const;

export type OperationName = keyof typeof TABLE;

/** The table, in the order above, each row carrying its name. */
export const OPERATIONS: readonly Operation[] = Object.entries(TABLE).map(([name, definition]) => ({
  ...definition,
  name: name as OperationName,
}));

const WORDS = [
  "no",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];

/** A count as prose writes it: a word up to twelve, digits past it. */
export function inWords(count: number): string {
  return WORDS[count] ?? String(count);
}

/**
 * How many operations the table holds, as the help texts write it ("six"): counted, never typed in. The docs'
 * counts are held to the same number by test/docs/operation-count.test.ts.
 */
export const OPERATION_COUNT = inWords(OPERATIONS.length);

export function operation(name: OperationName): Operation {
  const found = OPERATIONS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}

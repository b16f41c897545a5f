import { z } from "zod";
import { issueToken } from "../../domain/auth/tokens.js";
import { eventResponse, trackEvent, trackEventBodySchema } from "../../domain/events/track-event.js";
import { benefitIdOf, benefitNamed, deleteBenefit } from "../../domain/incentives/benefit.js";
import { deleteIncentive } from "../../domain/incentives/delete-incentive.js";
import { assignCard, assignCardBodySchema } from "../../domain/members/assign-card.js";
import { hexId } from "../../domain/shared/schema-parts.js";
import { createTier, tierAnswer, tierBodySchema } from "../../domain/tiers/create-tier.js";
import { voucherResponse } from "../../domain/vouchers/voucher-view.js";
import { templateMatcher } from "../route.js";
import { auth, type OperationRow, type RawInput, row } from "./row.js";

/**
 * The operations, one row each, in the spirit of stripe-mock's single route table: a row holds everything about
 * its operation (row.ts says what): name, title, method, path, credentials and scopes, body, input, use case, a
 * plain successful call of it and the dashboard's sentence for one. The mount (operations/mount.ts),
 * authentication, the journal's names, the control API's list of operations, the dashboard's activity, the help
 * texts' count, verify's success steps, the benchmark's workloads, play's calls, the generated-input (fuzz)
 * targets and the docs' generated tables (`npm run docs:operations`) all read it. Adding an operation is one row
 * here, one use case in the domain, its tests and its docs: docs/internals/adding-an-operation.md lists every
 * file, and test/slow/adding-an-operation.test.ts adds a row in a copy of the project to prove the list.
 */

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
    sentence: ({ ok, body, answer, refusal }) =>
      ok
        ? `The app got an access token (scope ${String(answer.scope ?? body.scope ?? "")})`
        : `A token request was refused: ${refusal}`,
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
    sentence: ({ ok, params, body, answer, project, refusal, customer }) => {
      const who = customer(body.customer);
      const id = params.campaignId ?? "";
      const program = project.campaigns.find(id)?.name ?? id;
      return ok
        ? `${who} joined ${program} with card ${String(answer.code ?? "")}`
        : `${who} could not join ${program}: ${refusal}`;
    },
  }),
  getLocation: row<RawInput>({
    title: "Get a location",
    method: "GET",
    path: "/v1/locations/{locationId}",
    auth: auth(["api", "locations"], { acceptsServiceOAuth: true }),
    body: "none",
    run: ({ auth: { project }, input }) => project.locations.get(String(input.params.locationId)),
    example: (ids) => ({ params: { locationId: ids.location } }),
    sentence: ({ ok, params, project, refusal }) => {
      const id = params.locationId ?? "";
      return ok
        ? `The app looked up the location ${project.locations.find(id)?.name ?? id}`
        : `Looking up the location ${id} failed: ${refusal}`;
    },
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
    example: ({ event, customer }) => ({
      params: {},
      body: {
        event: event.name,
        customer: { source_id: customer },
        ...(event.metadata !== undefined && { metadata: event.metadata }),
      },
    }),
    sentence: ({ ok, body, refusal, customer, earned, words }) => {
      const who = customer(body.customer);
      const type = String(body.event ?? "an event");
      const said = words(type);
      if (!ok) return `${who}'s ${said} was refused: ${refusal}`;
      const points = earned(body.customer, type);
      return points > 0
        ? `${who} earned ${points.toLocaleString("en")} points for ${said}`
        : `${who} sent ${said}`;
    },
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
        qualification_rules: { type: "POINTS", min_value: ids.n, max_value: ids.n },
        metadata: { source: "loyalty-mock" },
      },
    }),
    sentence: ({ ok, params, body, answer, project, refusal }) => {
      const id = params.id ?? "";
      const structure = project.tierStructures.find(id)?.name ?? id;
      const name = String(body.name ?? answer.name ?? "A tier");
      return ok
        ? `Tier ${name} was created in ${structure}`
        : `Creating tier ${name} in ${structure} failed: ${refusal}`;
    },
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
    sentence: ({ ok, params, project, refusal }) => {
      const id = params.id ?? "";
      const name = project.incentives.find(id)?.name ?? id;
      return ok ? `Incentive ${name} was deleted` : `Deleting incentive ${name} failed: ${refusal}`;
    },
  }),
  deleteBenefit: row({
    title: "Delete a benefit",
    method: "DELETE",
    // The generally available Loyalty v2's name of an incentive, the same record as deleteIncentive's, refused
    // in the GA file's words: docs/fidelity.md, "Loyalty v2 as generally available".
    path: "/v2/loyalties/benefits/{benefitId}",
    auth: auth(["api", "loyalties"], { v2: true }),
    body: "json",
    // The GA file's pattern, checked before the lookup (400, not 404), as the incentive's is.
    input: z.object({ params: z.object({ benefitId: hexId("lben") }) }),
    run: ({ auth: { project }, input }) => deleteBenefit(project, input.params.benefitId),
    example: (ids) => ({ params: { benefitId: benefitIdOf(ids.incentive) } }),
    sentence: ({ ok, params, project, refusal }) => {
      const id = params.benefitId ?? "";
      const name = benefitNamed(project, id)?.name ?? id;
      return ok ? `Benefit ${name} was deleted` : `Deleting benefit ${name} failed: ${refusal}`;
    },
  }),
} as const;

export type OperationName = keyof typeof TABLE;

export type Operation = OperationRow<unknown> & { name: OperationName };

/** The table, in the order above, each row carrying its name. */
export const OPERATIONS: readonly Operation[] = Object.entries(TABLE).map(([name, definition]) => ({
  ...(definition as OperationRow<unknown>),
  name: name as OperationName,
}));

const BY_NAME: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((row) => [row.name, row]));

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
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}

/** The row of a name as a journal entry or a query carries it (any text), if the table has one. */
export function operationNamed(name: string | null): Operation | undefined {
  return name === null ? undefined : BY_NAME.get(name);
}

const ROUTED = templateMatcher(OPERATIONS, { asRouted: true });

/**
 * The row whose route takes a request of this method and path (no query string), matched as Express's router
 * matches (route.ts, templateMatcher). For the requests a fault rule or the rate limit answers before the route
 * runs: their journal entries name the operation all the same.
 */
export function operationAt(method: string, path: string): Operation | undefined {
  return ROUTED(method, path)[0];
}

import type { ExampleIds } from "../../http/operations/row.js";
import { OPERATIONS, type Operation, type OperationName, operation } from "../../http/operations/table.js";
import { filledPath } from "../../http/route.js";
import type { Objects } from "./config.js";
import { customerOf, gaTierPoint, type RunInputs, type Step, type StepRequest } from "./step.js";

/**
 * The steps of `loyalty-mock verify`: every operation of the table, in the table's order, each
 * with its success step (its row's example call, made from the side's objects and the run's new values, so a new
 * row has one with nothing written here) and the documented errors written below, in an order that works on a
 * fresh sandbox project and again on the next run. The incentive deleted is the first of the config's list still
 * there. A call a step, a few more when earlier runs deleted incentives: well under the 40 calls a run may make.
 */

/** The ids a side's example call of an operation is made from: its objects, and what the run makes new. */
function idsOf(objects: Objects, inputs: RunInputs, name: OperationName, incentive: string): ExampleIds {
  return {
    campaign: objects.loyalty_campaign_id,
    location: objects.location_id,
    event: { name: objects.custom_event.name, metadata: objects.custom_event.metadata },
    tierStructure: objects.tier_structure_id,
    incentive,
    customer: customerOf(inputs, name),
    n: inputs.tierPoints,
  };
}

/** The credentials a row takes in its plain call: the key pair, and the bearer token with it for v2. */
const credentialsOf = (row: Operation) => (row.auth.v2 ? "key+bearer" : "key");

/** A change made to an example's body: another form of it, or something wrong in it. */
type BodyChange = (sent: Record<string, unknown>) => Record<string, unknown>;

/** A row's example call as a step sends it; `ids` may change the example's ids, `body` its body. */
function exampleRequest(row: Operation, ids: ExampleIds, body: BodyChange = (sent) => sent): StepRequest {
  const call = row.example(ids);
  const sent = call.body === undefined ? undefined : body(call.body as Record<string, unknown>);
  return {
    method: row.method,
    path: filledPath(row.path, call.params),
    credentials: credentialsOf(row),
    ...(sent !== undefined && row.body === "form" && { form: sent as Record<string, string> }),
    ...(sent !== undefined && row.body === "json" && { json: sent }),
  };
}

/**
 * What a success step compares beyond the status, the shape and the headers, where the service's answer is known
 * to hold it: the values it echoes from the request (answer path: request path), each judged per side against
 * what that side sent, and the values it answers alike on any project. Knowledge of the real service, not of the
 * row: a row without an entry is compared by status, shape and headers.
 */
const COMPARED: { readonly [N in OperationName]?: Pick<Step, "echo" | "values"> } = {
  generateToken: { echo: { scope: "scope" }, values: ["token_type", "expires_in"] },
  addMember: {
    values: ["object", "type", "campaign_id", "is_referral_code", "publish.object", "publish.count"],
  },
  getLocation: { values: ["id", "object"] },
  trackEvent: {
    echo: { type: "event", metadata: "metadata", "customer.source_id": "customer.source_id" },
    values: ["object", "customer.object", "referral", "loyalty"],
  },
  createTier: {
    echo: { name: "name", qualification_rules: "qualification_rules", metadata: "metadata" },
    values: ["object", "tier_structure_id", "downgrade", "updated_at"],
  },
  deleteIncentive: { values: ["id", "object", "status"] },
};

/** Ids no project holds, in each resource's own shape. */
const UNKNOWN = {
  location: "loc_verify_unknown_location",
  campaign: "camp_verify_unknown_campaign",
  tierStructure: "lts_00000000000000000",
  event: "verify_unknown_event",
};

/** An error step: a row's example call with something wrong in it, in the example's own terms. */
type ErrorStep = Omit<Step, "operation" | "success">;

function wrong(
  name: OperationName,
  step: string,
  change: {
    ids?: (ids: ExampleIds) => Partial<ExampleIds>;
    body?: BodyChange;
    credentials?: StepRequest["credentials"];
  },
): ErrorStep {
  const row = operation(name);
  return {
    name: step,
    writes: false,
    request: (o, i, incentive) => {
      const ids = idsOf(o, i, name, incentive);
      const sent = exampleRequest(row, { ...ids, ...change.ids?.(ids) }, change.body);
      return change.credentials ? { ...sent, credentials: change.credentials } : sent;
    },
  };
}

const rules = (body: Record<string, unknown>) => body.qualification_rules as { min_value: number };

/**
 * The documented errors of each operation, after its success step: what the service's reference says it refuses
 * and with what. Written by hand, as no row says how its operation fails; each is the row's example call with one
 * thing wrong, so it follows the row.
 */
const ERROR_STEPS: { readonly [N in OperationName]?: readonly ErrorStep[] } = {
  generateToken: [
    wrong("generateToken", "token-comma-scope", { body: (sent) => ({ ...sent, scope: "api,loyalties" }) }),
  ],
  getLocation: [
    wrong("getLocation", "location-unknown", { ids: () => ({ location: UNKNOWN.location }) }),
    wrong("getLocation", "location-no-credentials", { credentials: "none" }),
  ],
  addMember: [
    // The success step's customer again: she holds a card of the program already.
    { ...wrong("addMember", "member-same-customer", {}), writes: true },
    wrong("addMember", "member-unknown-campaign", { ids: () => ({ campaign: UNKNOWN.campaign }) }),
  ],
  trackEvent: [
    wrong("trackEvent", "event-unknown-name", {
      ids: () => ({ event: { name: UNKNOWN.event } }),
    }),
  ],
  createTier: [
    wrong("createTier", "tier-max-below-min", {
      body: (sent) => ({
        ...sent,
        qualification_rules: { ...rules(sent), max_value: rules(sent).min_value - 1 },
      }),
    }),
    wrong("createTier", "tier-unknown-structure", { ids: () => ({ tierStructure: UNKNOWN.tierStructure }) }),
    // To a structure that does not exist: should the service take the key pair alone, nothing is written.
    wrong("createTier", "tier-without-bearer", {
      ids: () => ({ tierStructure: UNKNOWN.tierStructure }),
      credentials: "key",
    }),
  ],
  deleteIncentive: [
    wrong("deleteIncentive", "incentive-malformed-id", { ids: () => ({ incentive: "not-an-incentive" }) }),
  ],
  // An incentive's id where the benefit's is due (a client half moved to the generally available reference): its
  // pattern refuses it, 400. Written out, as the row's example makes every id it is given a benefit's.
  deleteBenefit: [
    {
      name: "benefit-malformed-id",
      writes: false,
      request: (o) => ({
        method: "DELETE",
        path: `/v2/loyalties/benefits/${o.incentive_ids[0] ?? "linc_0"}`,
        credentials: "key+bearer",
      }),
    },
  ],
};

/**
 * Other forms of an operation's plain call that the service takes, each a success step of its own: the row's
 * example as a client of another version writes it. The tier in the generally available Loyalty v2's form
 * (docs/fidelity.md, "Loyalty v2 as generally available"): the example's range nested under `points`, at a point
 * of its own (gaTierPoint), so both forms' tiers fit the structure.
 */
const FORMS: { readonly [N in OperationName]?: readonly { name: string; body: BodyChange }[] } = {
  createTier: [
    {
      name: "createTier-ga",
      body: (sent) => {
        const point = gaTierPoint(rules(sent).min_value);
        return {
          ...sent,
          name: `${String(sent.name)} GA`,
          qualification_rules: { type: "POINTS", points: { min_value: point, max_value: point } },
        };
      },
    },
  ],
};

/** Ids that differ in every field from any a call is made with: what a row's example does with each shows. */
const PROBE: ExampleIds = {
  campaign: "probe_campaign",
  location: "probe_location",
  event: { name: "probe_event" },
  tierStructure: "probe_structure",
  incentive: "probe_incentive",
  customer: "probe_customer",
  n: 1,
};

/** Whether a row's example call names the incentive it is given: a writing one uses it up (deletes it). */
const usesIncentive = (row: Operation) =>
  JSON.stringify(row.example(PROBE)) !== JSON.stringify(row.example({ ...PROBE, incentive: "probe_other" }));

/**
 * A row's success step: its example call. It writes unless it is a GET or the token request (the one row no token
 * opens, whose token the later steps use). One that uses an incentive up tries the config's list in order.
 */
function successStep(row: Operation): Step {
  const writes = row.method !== "GET" && row.auth.acceptsToken;
  return {
    name: row.name,
    operation: row.name,
    success: true,
    writes,
    request: (o, i, incentive) => exampleRequest(row, idsOf(o, i, row.name, incentive)),
    ...COMPARED[row.name],
    ...(writes && usesIncentive(row) && { triesIncentives: true as const }),
  };
}

/** The step whose answer holds the token of the run (the v2 steps send it): the token request's success step. */
export const isTokenStep = (step: Step) => step.success && !operation(step.operation).auth.acceptsToken;

/** A success step of another form of the row's call (FORMS): its example, the body rewritten. */
function formStep(row: Operation, form: { name: string; body: BodyChange }): Step {
  return {
    ...successStep(row),
    name: form.name,
    request: (o, i, incentive) => exampleRequest(row, idsOf(o, i, row.name, incentive), form.body),
  };
}

export const STEPS: readonly Step[] = OPERATIONS.flatMap((row) => [
  successStep(row),
  ...(FORMS[row.name] ?? []).map((form) => formStep(row, form)),
  ...(ERROR_STEPS[row.name] ?? []).map((step) => ({ ...step, operation: row.name, success: false })),
]);

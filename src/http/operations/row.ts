import type { z } from "zod";
import type { AuthContext, AuthPolicy } from "../../domain/auth/authenticate.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import type { Int64 } from "../../domain/shared/int64.js";
import type { Notify } from "../../domain/webhooks/notification.js";
import type { HttpMethod } from "../route.js";

/**
 * What a row of the operation table (table.ts) is: its server side (route, credentials, input, use case) and its
 * client side (a plain successful call of it, and how the dashboard words one), so that whatever knows an
 * operation reads it from its row.
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
 * and what a caller makes new at each call wherever a call creates what must not exist yet.
 */
export interface ExampleIds {
  /** A loyalty program a new customer may join. */
  campaign: string;
  location: string;
  /** A custom event the project's schemas accept, with the metadata they ask for (none when absent). */
  event: { name: string; metadata?: Record<string, unknown> | undefined };
  /** A tier structure with room for one more tier. */
  tierStructure: string;
  /** An incentive still there, which no earning rule uses. */
  incentive: string;
  /** A customer's source id, new to the project where the call creates her. */
  customer: string;
  /**
   * A number no earlier call of the same kind used: a tier's name and the single point of its POINTS range (so
   * two calls' ranges never overlap).
   */
  n: number;
}

/** A plain successful call of an operation: its path parameters and its body (a form's fields for a form). */
interface ExampleCall {
  params: Readonly<Record<string, string>>;
  body?: unknown;
}

type Json = Record<string, unknown>;

/**
 * A journaled call of the operation as the dashboard tells it (http/control/demo/activity.ts makes one from a
 * journal entry): the call, read back, and the words every sentence shares. Names are read from the project as it
 * is now, so a customer a request created is named though the request only knew her source id.
 */
interface ToldCall {
  /** Whether it succeeded (a status under 400). */
  ok: boolean;
  /** Its path parameters, by the names of the row's path, decoded. */
  params: Readonly<Record<string, string | undefined>>;
  /** The request's body and the answer's, each {} when it is not a JSON object. */
  body: Json;
  answer: Json;
  project: Project;
  /** What the service said when it refused, as a reader takes it: its status, then its details or its message. */
  refusal: string;
  /** A customer by a body's reference (`{ id }` or `{ source_id }`): her name, else what names her. */
  customer(ref: unknown): string;
  /** The points the customer's event of that type earned (the recorded one nearest the call). */
  earned(ref: unknown, type: string): Int64;
}

export interface OperationRow<Input> {
  /** What people call it: the dashboard's lists and forms, the generated tables of the docs. */
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
  /**
   * The client side: a plain call of it that succeeds, which every client that calls each operation makes (verify's
   * success step, the bench's load, the rate-limit test's plain 200).
   */
  example(ids: ExampleIds): ExampleCall;
  /** How the dashboard's activity words a call of it, succeeded or refused: one sentence. */
  sentence(call: ToldCall): string;
}

/** Rows are typed one by one, so that each row's input schema and use case agree. */
export function row<Input>(definition: OperationRow<Input>): OperationRow<Input> {
  return definition;
}

/** Most operations accept a token too; the token endpoint takes the key pair only. */
export function auth(scopes: readonly string[], extra: Partial<AuthPolicy> = {}): AuthPolicy {
  return { acceptsToken: true, acceptsServiceOAuth: false, v2: false, scopes, ...extra };
}

/** What an operation without an input schema gets: the path's parameters and the body as read. */
export interface RawInput {
  params: Record<string, string>;
  body: unknown;
}

import { randomBytes } from "node:crypto";
import type { OperationName } from "../../http/operations/table.js";
import type { HttpMethod } from "../../http/route.js";
import type { Objects } from "./config.js";

/**
 * What a step of a run (steps.ts) is, and what each run makes fresh so that it works on a fresh sandbox
 * project and again on the next run: customers named after the run, and a tier range no earlier run used.
 */

/** Which credentials a step sends: the key pair, the key pair and the bearer token (as v2 asks), or nothing. */
type Credentials = "key" | "key+bearer" | "none";

export interface StepRequest {
  method: HttpMethod;
  path: string;
  credentials: Credentials;
  /** A JSON body; `form` for the token endpoint. */
  json?: Record<string, unknown>;
  form?: Record<string, string>;
}

/**
 * What is fresh in each run, the same for both sides of it, and kept in a recording: the run's name (each
 * operation's customer is named after it, customerOf) and the single point of its tier's range.
 */
export interface RunInputs {
  run: string;
  /** The single-point range of this run's tier: [tierPoints, tierPoints]. */
  tierPoints: number;
}

/** The customer a run's call of an operation creates or names: new to the project, one per operation. */
export function customerOf(inputs: RunInputs, operation: OperationName): string {
  return `verify-${inputs.run}-${operation}`;
}

export interface Step {
  name: string;
  operation: OperationName;
  /** The operation's success step (its row's example call), which every row has; else a documented error. */
  success: boolean;
  /** Writes to the project when it succeeds: runs only with allow_writes. */
  writes: boolean;
  request(objects: Objects, inputs: RunInputs, incentiveId: string): StepRequest;
  /** Response body paths that echo the request body (response path: request path), compared per side. */
  echo?: Record<string, string>;
  /** Response body paths whose values are compared on a success (after ids are normalized). */
  values?: string[];
  /** The incentive step: a 404 means an earlier run deleted it; the next of the list is tried. */
  triesIncentives?: true;
}

/** Tier ranges of verify runs start here, far above the fixtures' and a sandbox's own tiers. */
export const TIER_BASE = 500_000_000;

/**
 * The generally available form's tier of a run sits this far below the beta's (its thresholds stop at
 * 1,000,000,000, so it cannot sit above): 250,000,000 seconds of runs, into 2033, before the two could meet.
 */
const GA_TIER_OFFSET = 250_000_000;

/** The single point of a run's tier in the generally available form, from its beta tier's point. */
export function gaTierPoint(tierPoint: number): number {
  return tierPoint - GA_TIER_OFFSET;
}
const EPOCH = Date.UTC(2026, 0, 1);

/** The run's inputs: its tier range is the second it started (since 2026), so no two runs' ranges overlap. */
export function runInputs(now: number): RunInputs {
  const run = `${Math.floor(now / 1000).toString(36)}${randomBytes(2).toString("hex")}`;
  return {
    run,
    tierPoints: TIER_BASE + Math.max(0, Math.floor((now - EPOCH) / 1000)),
  };
}

import type { NextFunction, RequestHandler, Response } from "express";
import { attribute } from "../../domain/auth/attribution.js";
import { apiLimitReached } from "../../domain/errors.js";
import type { Project } from "../../domain/projects/project.js";
import type { ProjectRegistry } from "../../domain/projects/registry.js";
import type { HeldRequests } from "../../emulation/faults/held-requests.js";
import { credentialsOf } from "../operations/credentials.js";
import { type EntryNotes, journalRequest, pathOf } from "./journal-request.js";
import { playFault } from "./play-fault.js";

/**
 * Counts the request against the project's API call budget. Every answer while a limit is set carries the
 * real service's `X-Rate-Limit-Limit` and `X-Rate-Limit-Remaining`; past the limit the request is refused
 * with 429 before it reaches the operation.
 */
function limitRate(registry: ProjectRegistry, project: Project, res: Response): void {
  const rule = project.effectiveSettings(registry.defaults).rateLimit;
  if (!rule) return;
  const now = project.clock.now();
  const decision = project.rateLimiter.take(rule, now);
  if (!decision.allowed) throw apiLimitReached(rule.limit, rule.window_seconds, decision.resetAtMs, now);
  res.setHeader("X-Rate-Limit-Limit", String(decision.limit));
  res.setHeader("X-Rate-Limit-Remaining", String(decision.remaining));
}

/**
 * What the control API observes and steers on every request outside /__mock, whatever its route: the request is
 * attributed to a project by its credentials (see domain/auth/attribution.ts), journaled there, then the
 * project's fault rules and rate limit apply, in that order. Requests no project's credentials name pass untouched.
 * The operations themselves know nothing of this, so every route, present or future, is covered alike.
 */
export function trafficMiddleware(registry: ProjectRegistry, held: HeldRequests): RequestHandler {
  return (req, res, next) => {
    const attribution = attribute(registry, credentialsOf(req));
    if (!attribution) return next();
    const { project, verified } = attribution;
    const notes = journalRequest(registry, project, verified, req, res);
    // Most projects have no fault rules: their requests need no path worked out and no closure to play one.
    const fault =
      project.faults.size === 0 ? undefined : project.faults.take(req.method, pathOf(req.originalUrl));
    if (!fault) return proceed(registry, project, verified, notes, res, next);
    notes.fault = { id: fault.id, action: fault.action };
    playFault(fault, req, res, () => proceed(registry, project, verified, notes, res, next), held);
  };
}

/** After any fault: the rate limit (for a verified caller), then the route, or the refusal's error handler. */
function proceed(
  registry: ProjectRegistry,
  project: Project,
  verified: boolean,
  notes: EntryNotes,
  res: Response,
  next: NextFunction,
): void {
  let refusal: unknown;
  try {
    if (verified) limitRate(registry, project, res);
  } catch (error) {
    notes.rateLimited = true;
    refusal = error;
  }
  next(refusal);
}

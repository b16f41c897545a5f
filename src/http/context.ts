import type { Request, Response } from "express";
import type { AuthContext } from "../domain/auth/authenticate.js";

/**
 * What the middleware chain hands to a handler. Kept on res.locals under one key so handlers read typed values
 * instead of reaching into untyped bags.
 */
interface Locals {
  auth?: AuthContext;
  /** Authenticates again when the world changed since `auth` was decided (see requireAuth). */
  recheck?: (auth: AuthContext) => AuthContext;
  input?: unknown;
  /** The name of the operation table's row that took the request (its constant, never a copy). */
  operation?: string;
}

function locals(res: Response): Locals {
  res.locals.mock ??= {};
  return res.locals.mock as Locals;
}

export function setAuth(
  res: Response,
  auth: AuthContext,
  recheck?: (auth: AuthContext) => AuthContext,
): void {
  const entry = locals(res);
  entry.auth = auth;
  if (recheck) entry.recheck = recheck;
}

/**
 * The caller, as it stands now: handlers run after the body was read, and a reset, a state import or a key's
 * deletion may have landed meanwhile; the recheck then judges the request against the world as it is.
 */
export function recheckedAuth(res: Response): AuthContext {
  const entry = locals(res);
  if (!entry.auth) throw new Error("handler reached without authentication; the route lacks requireAuth");
  if (entry.recheck) entry.auth = entry.recheck(entry.auth);
  return entry.auth;
}

export function setInput(res: Response, input: unknown): void {
  locals(res).input = input;
}

/** The input the route's validate() middleware parsed, typed by the route's schema. */
export function getInput<T>(res: Response): T {
  return locals(res).input as T;
}

/** Marks the request as taken by the operation `name`, for its journal entry. */
export function nameOperation(res: Response, name: string): void {
  locals(res).operation = name;
}

/** The operation that took the request, or null when no row did (it allocates nothing for a request without one). */
export function operationOf(res: Response): string | null {
  return (res.locals.mock as Locals | undefined)?.operation ?? null;
}

/** The request id made for this request (requestLog). */
export function requestIdOf(req: Request): string {
  return String(req.id);
}

import type { Request, Response } from "express";
import type { AuthContext } from "../domain/auth/authenticate.js";

/**
 * What the middleware chain hands to a handler. Kept on res.locals under one key so handlers read typed values
 * instead of reaching into untyped bags.
 */
interface Locals {
  auth?: AuthContext;
  input?: unknown;
}

function locals(res: Response): Locals {
  res.locals.mock ??= {};
  return res.locals.mock as Locals;
}

export function setAuth(res: Response, auth: AuthContext): void {
  locals(res).auth = auth;
}

export function getAuth(res: Response): AuthContext {
  const auth = locals(res).auth;
  if (!auth) throw new Error("handler reached without authentication; the route lacks requireAuth");
  return auth;
}

export function setInput(res: Response, input: unknown): void {
  locals(res).input = input;
}

/** The input the route's validate() middleware parsed, typed by the route's schema. */
export function getInput<T>(res: Response): T {
  return locals(res).input as T;
}

/** The request id made for this request (requestLog). */
export function requestIdOf(req: Request): string {
  return String(req.id);
}

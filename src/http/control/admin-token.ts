import type { RequestHandler } from "express";
import { unauthorized } from "../../domain/errors.js";
import { secureEqual } from "../../platform/secure-compare.js";

/** The header every control call carries when the server has an admin token (LOYALTY_MOCK_ADMIN_TOKEN). */
export const ADMIN_TOKEN_HEADER = "X-Mock-Admin-Token";

/**
 * Guards the whole control API when a token is configured; without one the control API is open, which suits a
 * laptop or a CI job where the server listens on loopback only. Checked before the route, so a caller without the
 * token learns nothing, not even which control routes exist. The emulated operations never ask for it.
 */
export function requireAdminToken(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) return next();
    const sent = req.get(ADMIN_TOKEN_HEADER);
    if (sent === undefined) throw unauthorized(`Missing ${ADMIN_TOKEN_HEADER} header`);
    if (!secureEqual(sent, token)) throw unauthorized(`Invalid ${ADMIN_TOKEN_HEADER}`);
    next();
  };
}

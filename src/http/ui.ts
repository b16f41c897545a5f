import { fileURLToPath } from "node:url";
import express, { type Router } from "express";
import { routeNotFound } from "./errors/http-errors.js";

/** The dashboard's files, beside src/ and dist/ alike (`ui/` at the package's root, shipped as they are). */
export const UI_DIR = fileURLToPath(new URL("../../ui/", import.meta.url));

/**
 * Nothing but this server's own files: the page talks only to its own origin, so an injected script or a
 * stylesheet from elsewhere cannot run, and it works offline.
 */
const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

/**
 * GET /__mock/ui/: the live dashboard. Its files are served without the admin token, so that the page can load
 * and ask for it; everything it shows comes through the control API, which does ask (docs/guide/dashboard.md).
 */
export function uiRouter(): Router {
  const router = express.Router();
  router.use(
    express.static(UI_DIR, {
      index: "index.html",
      dotfiles: "ignore",
      etag: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      },
    }),
  );
  router.use((req) => {
    throw routeNotFound(req.method, req.originalUrl.split("?")[0] ?? req.path);
  });
  return router;
}

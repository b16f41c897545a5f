import type { ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import express, { type Router } from "express";
import { routeNotFound } from "./errors/http-errors.js";

/** The dashboard's files, beside src/ and dist/ alike (`ui/` at the package's root, shipped as they are). */
export const UI_DIR = fileURLToPath(new URL("../../ui/", import.meta.url));

/**
 * lossless-json's ES modules (a dependency of the server, wherever npm put it), which the page loads to read an
 * answer holding an integer past 2^53 without rounding it (ui/json.js, docs/internals/exact-integers.md).
 */
export const LOSSLESS_JSON_DIR = fileURLToPath(new URL(".", import.meta.resolve("lossless-json")));
/**
 * The folder of Chart.js's builds (a dependency of the server; its UMD build is the one the page loads): one self-contained file,
 * so no build step of ours and no CDN.
 */
export const CHART_JS_DIR = fileURLToPath(new URL(".", import.meta.resolve("chart.js")));
const CHART_JS_FILE = "/chart.umd.min.js";
/** Its modules only: not its tests, source maps or package.json. */
const LOSSLESS_JSON_MODULE = /^\/[A-Za-z]+\.js$/;

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

function setHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/**
 * GET /__mock/ui/: the live dashboard. Its files are served without the admin token, so that the page can load
 * and ask for it; everything it shows comes through the control API, which does ask (docs/guide/dashboard.md).
 * `vendor/lossless-json/` is lossless-json's modules, which the page loads when it needs them; `vendor/chart.js/`
 * Chart.js's build, for the charts of the audience views.
 */
export function uiRouter(): Router {
  const router = express.Router();
  const files = { dotfiles: "ignore", etag: false, setHeaders } as const;
  router.use(express.static(UI_DIR, { index: "index.html", ...files }));
  const vendor = express.static(LOSSLESS_JSON_DIR, { index: false, redirect: false, ...files });
  router.use("/vendor/lossless-json", (req, res, next) =>
    LOSSLESS_JSON_MODULE.test(req.path) ? vendor(req, res, next) : next(),
  );
  const charts = express.static(CHART_JS_DIR, { index: false, redirect: false, ...files });
  router.use("/vendor/chart.js", (req, res, next) =>
    req.path === CHART_JS_FILE ? charts(req, res, next) : next(),
  );
  router.use((req) => {
    throw routeNotFound(req.method, req.originalUrl.split("?")[0] ?? req.path);
  });
  return router;
}

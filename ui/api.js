// @ts-check
import { readJson } from "./json.js";

/**
 * The control API, as the page calls it: JSON, with the admin token in its header (never in a URL). Answers are
 * read with their 64-bit integers exact (json.js).
 */

const TOKEN_KEY = "loyalty-mock-admin-token";
/** Kept for this tab only: closing it forgets the token. */
let token = sessionStorage.getItem(TOKEN_KEY) ?? undefined;
/** @type {() => void} */
let onUnauthorized = () => {};

export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {any} body
   */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** @param {string | undefined} value */
export function setToken(value) {
  token = value || undefined;
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** @param {() => void} handler called when the server asks for the admin token */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

/** @returns {Record<string, string>} */
export function authHeaders() {
  return token ? { "X-Mock-Admin-Token": token } : {};
}

/**
 * A path under /__mock/projects/{id}/, its parts encoded.
 * @param {string} projectId
 * @param {...string} parts
 */
export function projectPath(projectId, ...parts) {
  return ["/__mock/projects", projectId, ...parts]
    .map((p, i) => (i === 0 ? p : encodeURIComponent(p)))
    .join("/");
}

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown, query?: Record<string, string | number | undefined> }} [options]
 * @returns {Promise<any>} the parsed answer (null for 204)
 */
export async function api(path, options = {}) {
  const method = options.method ?? "GET";
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== "") query.set(name, String(value));
  const url = query.size ? `${path}?${query}` : path;
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...authHeaders() };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  if (response.status === 204) return null;
  const text = await response.text();
  let body;
  try {
    body = text ? await readJson(text) : null;
  } catch {
    body = text;
  }
  if (response.status === 401) onUnauthorized();
  if (!response.ok) {
    const said =
      body && typeof body === "object" ? `${body.key ?? ""}: ${body.details ?? body.message ?? ""}` : text;
    throw new ApiError(`${method} ${url} answered ${response.status} ${said}`, response.status, body);
  }
  return body;
}

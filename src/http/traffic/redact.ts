import { SECRET_HEADERS } from "../../platform/logger.js";

const REDACTED = "[redacted]";

/** Properties whose values are secrets wherever they appear in a body: the token endpoint's answer. */
const SECRET_PROPERTIES = new Set(["access_token"]);

/**
 * The request's headers with every secret replaced, as the journal shows them. An Authorization header keeps its
 * scheme (`Bearer [redacted]`) so a test can still see how the application sent its token.
 */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  secretNames: readonly string[] = SECRET_HEADERS,
): Record<string, string | string[]> {
  const secret = new Set(secretNames.map((name) => name.toLowerCase()));
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (!secret.has(name.toLowerCase())) out[name] = value;
    else if (Array.isArray(value)) out[name] = value.map(redactValue);
    else out[name] = redactValue(value);
  }
  return out;
}

function redactValue(value: string): string {
  const scheme = /^(Bearer|Basic)[ \t]+\S/i.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** Far deeper than any body the input limits let through: a guard, so a journal copy never overflows the stack. */
const MAX_COPY_DEPTH = 256;

/** A deep copy of a body with secret properties replaced; the original is left as the client received it. */
export function redactBody(body: unknown, depth = 0): unknown {
  if (depth > MAX_COPY_DEPTH) return "[nested too deep]";
  if (Array.isArray(body)) return body.map((item) => redactBody(item, depth + 1));
  if (body === null || typeof body !== "object") return body;
  // fromEntries defines each property, so a "__proto__" key a client sent stays a plain key of the copy.
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      SECRET_PROPERTIES.has(name) && typeof value === "string" ? REDACTED : redactBody(value, depth + 1),
    ]),
  );
}

import { isIP } from "node:net";
import { z } from "zod";

/**
 * The schemas of settings that need more than a zod built-in. A refinement's message says what is accepted: it
 * ends the one line that refuses a bad value.
 */

/** An address, a CIDR range (bits or netmask) or one of the names Express's "trust proxy" knows. */
function proxyEntry(entry: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(entry)) return true;
  const [address = "", mask, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (mask === undefined) return true;
  return /^\d+$/.test(mask) ? Number(mask) <= (family === 6 ? 128 : 32) : isIP(mask) === family;
}

/**
 * "true"/"false", a hop count, or Express's own names and address lists ("loopback", "10.0.0.0/8"), checked
 * here: Express only finds a bad address when it compiles the setting, with a stack trace.
 */
export const trustProxy = z
  .string()
  .refine(
    (value) => /^(true|false|\d+)$/.test(value) || value.split(/\s*,\s*/).every(proxyEntry),
    "true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal, uniquelocal",
  )
  .transform((value): boolean | number | string => {
    if (value === "true") return true;
    if (value === "false") return false;
    return /^\d+$/.test(value) ? Number(value) : value;
  });

/**
 * An address literal: a host name would be looked up (a DNS query on a test machine that may have no network)
 * and a typo would only surface as getaddrinfo's error once listening.
 */
export const host = z
  .string()
  .refine(
    (value) => value === "localhost" || isIP(value) !== 0,
    "an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost",
  );

export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** `*` (any origin, the default, as the real API), or origins separated by commas: `https://app.example.com`. */
export const corsOrigins = z
  .string()
  .transform((value) => value.split(",").map((part) => part.trim()))
  .pipe(
    z.union([
      z.tuple([z.literal("*")]).transform((): "*" => "*"),
      z.array(
        z.string().regex(/^https?:\/\/[^/\s]+$/, {
          message: 'each origin must be like https://app.example.com, or "*"',
        }),
      ),
    ]),
  );

/**
 * Host names or addresses webhook URLs may name besides loopback, comma-separated, or `*` for any. Names are
 * compared as the URL writes them (no lookup): `hooks.internal`, `10.0.0.5`, `::2`.
 */
export const webhookHosts = z
  .string()
  .transform((value) => value.split(",").map((part) => part.trim().toLowerCase()))
  .pipe(
    z.union([
      z.tuple([z.literal("*")]).transform((): "*" => "*"),
      z.array(
        z
          .string()
          .regex(/^(\[?[0-9a-f:.]+\]?|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/, {
            message: 'each entry must be a host name or an IP address (hooks.internal, 10.0.0.5), or "*"',
          }),
      ),
    ]),
  );

/**
 * An instant for the frozen clock: ISO 8601 with its zone (`2026-01-01T09:00:00Z`, `…+02:00`), or a date alone
 * (`2026-01-01`), which is that day's midnight UTC, as JavaScript reads a date alone and as a user freezing "the
 * first of January" means it. A time without a zone is refused: it would be this machine's local time, which
 * differs between a laptop and CI. A date is read as `2026-01-01T00:00:00.000Z`; an instant is kept as given.
 */
export const instant = z
  .string()
  .refine(
    (value) =>
      (/^\d{4}-\d{2}-\d{2}$/.test(value) && z.iso.date().safeParse(value).success) ||
      z.iso.datetime({ offset: true }).safeParse(value).success,
    "an ISO 8601 instant with its zone, as in 2026-01-01T09:00:00Z, or a date, as in 2026-01-01 (midnight UTC)",
  )
  .transform((value) => (/T/.test(value) ? value : `${value}T00:00:00.000Z`));

import ipaddr from "ipaddr.js";

/**
 * Where webhooks may be sent. By default only to this machine: a stand-in run in CI or on a laptop must not be
 * turned into a way to make requests to other hosts (the fixtures and the control API are open to whoever reaches
 * the server). `*` allows any host; a list allows those host names (or addresses) besides loopback.
 */
export type AllowedHosts = "*" | readonly string[];

/** Loopback: 127.0.0.0/8, ::1 (and IPv4-mapped loopback), and the name localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  let address = ipaddr.parse(host);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === "loopback";
}

/** The loopback rule and the setting that widens it, as said in every refusal. */
const LOOPBACK_RULE =
  "webhook targets must be loopback addresses (127.0.0.0/8, ::1, localhost); LOYALTY_MOCK_WEBHOOK_HOSTS allows other hosts";

/** Why a URL cannot be a webhook target, or undefined when it can. */
export function targetProblem(url: string, allowed: AllowedHosts): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "should be an absolute http or https URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return "should be an absolute http or https URL";
  if (parsed.username || parsed.password) return "should not carry a user name or password";
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (allowed === "*" || isLoopbackHost(host) || allowed.some((entry) => entry.toLowerCase() === host))
    return undefined;
  return `host ${host} is not allowed: ${LOOPBACK_RULE}`;
}

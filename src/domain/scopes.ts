/** Scope values of the spec ("Scope values"): the server-side and the client-side group. */
const SERVER_SCOPES = [
  "api",
  "assets",
  "async-actions",
  "campaigns",
  "categories",
  "consents",
  "customers",
  "events",
  "exports",
  "locations",
  "loyalties",
  "metadata-schemas",
  "orders",
  "product-collections",
  "products",
  "promotions",
  "publications",
  "qualifications",
  "redemptions",
  "referrals",
  "rewards",
  "segments",
  "skus",
  "task-results",
  "templates",
  "trash-bin",
  "validation-rules-assignments",
  "validation-rules",
  "validations",
  "vouchers",
] as const;

const CLIENT_SCOPES = [
  "client_api",
  "client_consents",
  "client_customers",
  "client_events",
  "client_promotions",
  "client_publish",
  "client_qualifications",
  "client_redeem",
  "client_redemptions",
  "client_validate",
  "client_validations",
  "client_vouchers",
] as const;

export const ALL_SCOPES: readonly string[] = [...SERVER_SCOPES, ...CLIENT_SCOPES];

const known = new Set(ALL_SCOPES);

export function isScope(value: string): boolean {
  return known.has(value);
}

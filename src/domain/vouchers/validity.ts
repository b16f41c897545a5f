import type { Voucher } from "./voucher.js";

/**
 * Why a voucher cannot be used at `now`, or undefined when it can: switched off, not started, or expired. The
 * service treats a voucher as inactive outside its start_date..expiration_date window even when `active` is true.
 */
export function inactiveReason(
  voucher: Pick<Voucher, "active" | "start_date" | "expiration_date">,
  now: number,
): string | undefined {
  if (!voucher.active) return "is not active";
  if (voucher.start_date && Date.parse(voucher.start_date) > now)
    return `is not active yet; it starts at ${voucher.start_date}`;
  if (voucher.expiration_date && Date.parse(voucher.expiration_date) < now)
    return `has expired; it expired at ${voucher.expiration_date}`;
  return undefined;
}

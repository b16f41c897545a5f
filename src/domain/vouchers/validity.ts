import { type ApiError, apiError } from "../errors.js";
import type { Voucher } from "./voucher.js";

type Validity = Pick<Voucher, "id" | "code" | "active" | "start_date" | "expiration_date">;

/**
 * Why a card cannot be used at `now`, as the service's error, or undefined when it can. The service tells the three
 * causes apart by key (documentation/api-reference/errors.mdx: `voucher_disabled` "voucher has been disabled
 * (active: false)", `voucher_expired` "after expiration date", `voucher_not_active` "before start date"), and a
 * switched-off card is disabled whatever its dates say, so `active` is judged first.
 */
/** The cheap test, for scans over many cards: no error is built for the ones skipped. */
export function isUsable(voucher: Omit<Validity, "id" | "code">, now: number): boolean {
  return (
    voucher.active &&
    !(voucher.start_date && Date.parse(voucher.start_date) > now) &&
    !(voucher.expiration_date && Date.parse(voucher.expiration_date) < now)
  );
}

export function invalidity(voucher: Validity, now: number): ApiError | undefined {
  const card = `Voucher '${voucher.id}' (${voucher.code})`;
  if (!voucher.active) return apiError("voucher_disabled", { details: `${card} has been disabled` });
  if (voucher.start_date && Date.parse(voucher.start_date) > now)
    return apiError("voucher_not_active", {
      details: `${card} is not active yet; it starts at ${voucher.start_date}`,
    });
  if (voucher.expiration_date && Date.parse(voucher.expiration_date) < now)
    return apiError("voucher_expired", {
      details: `${card} has already expired; it expired at ${voucher.expiration_date}`,
    });
  return undefined;
}

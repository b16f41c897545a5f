import { type ApiError, apiError } from "../errors.js";

/** The refusals of POST /v1/events (docs/reference/operations.md, "Loyalty cards and custom events"). */

export function eventNotDefined(name: string): ApiError {
  return apiError("event_not_defined", {
    details: `Custom event '${name}' is not defined in the project's event schema`,
  });
}

export function metadataValidationFailed(eventName: string, problem: string): ApiError {
  return apiError("metadata_validation_failed", {
    details: `${problem} (event schema of '${eventName}')`,
  });
}

export function loyaltyCardNotHeld(code: string, customerId: string | undefined): ApiError {
  return apiError("loyalty_card_not_assigned", {
    details: customerId
      ? `Loyalty card '${code}' is not held by customer '${customerId}'`
      : `Loyalty card '${code}' is not held by the event's customer`,
  });
}

export function invalidReferralCode(code: string): ApiError {
  return apiError("invalid_referral_code", {
    details: `Voucher '${code}' is not a referral code`,
  });
}

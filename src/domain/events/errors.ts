import { ApiError } from "../errors.js";

/** The refusals of POST /v1/events (FIDELITY.md, "POST /v1/events"). */

export function eventNotDefined(name: string): ApiError {
  return new ApiError(400, "event_not_defined", "Event not defined", {
    details: `Custom event '${name}' is not defined in the project's event schema`,
  });
}

export function metadataValidationFailed(eventName: string, problem: string): ApiError {
  return new ApiError(400, "metadata_validation_failed", "Metadata validation failed", {
    details: `${problem} (event schema of '${eventName}')`,
  });
}

export function loyaltyCardNotHeld(code: string, customerId: string | undefined): ApiError {
  return new ApiError(400, "loyalty_card_not_assigned", "Loyalty card not assigned to customer", {
    details: customerId
      ? `Loyalty card '${code}' is not held by customer '${customerId}'`
      : `Loyalty card '${code}' is not held by the event's customer`,
  });
}

export function invalidReferralCode(code: string): ApiError {
  return new ApiError(400, "invalid_referral_code", "Invalid referral code", {
    details: `Voucher '${code}' is not a referral code`,
  });
}

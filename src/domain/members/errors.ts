import { ApiError } from "../errors.js";

/** The refusals of POST /v1/loyalties/{campaignId}/members, worded as the service words them (FIDELITY.md). */

export function invalidCampaignType(campaignId: string, campaignType: string): ApiError {
  return new ApiError(400, "invalid_campaign_type", "Invalid campaign type", {
    details: `Campaign '${campaignId}' is a ${campaignType} campaign; only a LOYALTY_PROGRAM campaign has members`,
    resourceId: campaignId,
    resourceType: "campaign",
  });
}

export function voucherAlreadyPublished(voucherId: string): ApiError {
  return new ApiError(400, "voucher_already_published", "Voucher already published", {
    details: `Voucher '${voucherId}' has already been published`,
  });
}

export function voucherNotActive(voucherId: string, why: string): ApiError {
  return new ApiError(400, "voucher_not_active", "Voucher not active", {
    details: `Voucher '${voucherId}' ${why}`,
  });
}

export function noVoucherSuitableForPublication(): ApiError {
  return new ApiError(
    400,
    "no_voucher_suitable_for_publication",
    "Couldn't find any voucher suitable for publication",
    {
      details: "Couldn't create new vouchers for publication",
    },
  );
}

export function customerAlreadyJoined(): ApiError {
  return new ApiError(400, "voucher_cannot_be_published", "Voucher cannot be published", {
    details: "Customer already joined program",
  });
}

export function duplicateSourceId(sourceId: string): ApiError {
  return new ApiError(400, "duplicate_source_id", "Duplicate source_id", {
    details: `A publication with source_id '${sourceId}' already exists`,
  });
}

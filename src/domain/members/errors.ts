import { type ApiError, apiError } from "../errors.js";

/** The refusals of POST /v1/loyalties/{campaignId}/members, worded as the service words them
 * (docs/reference/operations.md, "Loyalty cards and custom events"). */

export function invalidCampaignType(campaignId: string, campaignType: string): ApiError {
  return apiError("invalid_campaign_type", {
    details: `Campaign '${campaignId}' is a ${campaignType} campaign; only a LOYALTY_PROGRAM campaign has members`,
    resourceId: campaignId,
    resourceType: "campaign",
  });
}

export function voucherAlreadyPublished(voucherId: string): ApiError {
  return apiError("voucher_already_published", {
    details: `Voucher '${voucherId}' has already been published`,
  });
}

export function noVoucherSuitableForPublication(): ApiError {
  return apiError("no_voucher_suitable_for_publication", {
    details: "Couldn't create new vouchers for publication",
  });
}

export function customerAlreadyJoined(): ApiError {
  return apiError("voucher_cannot_be_published", {
    details: "Customer already joined program",
  });
}

export function duplicateSourceId(sourceId: string): ApiError {
  return apiError("duplicate_source_id", {
    details: `Publication with source_id: '${sourceId}' already exists`,
  });
}

import { z } from "zod";
import type { Campaign } from "../campaigns/campaign.js";
import { CAP_VARIABLES, type Caps } from "../caps.js";
import { customerInputSchema } from "../customers/customer-input.js";
import { commitCustomer, type ResolvedCustomer, resolveCustomer } from "../customers/resolve-customer.js";
import { limitExceeded, notFound } from "../errors.js";
import type { Project } from "../projects/project.js";
import type { Publication } from "../publications/publication.js";
import { metadata } from "../shared/schema-parts.js";
import { generateCode } from "../vouchers/code-generator.js";
import { invalidity, isUsable } from "../vouchers/validity.js";
import type { Voucher } from "../vouchers/voucher.js";
import { completeVoucher } from "../vouchers/voucher.js";
import type { Notification } from "../webhooks/notification.js";
import { customerNotification } from "../webhooks/payloads/customer.js";
import { publicationNotifications } from "../webhooks/payloads/publication.js";
import {
  customerAlreadyJoined,
  duplicateSourceId,
  invalidCampaignType,
  noVoucherSuitableForPublication,
  voucherAlreadyPublished,
} from "./errors.js";

/**
 * The service's own examples send `customer` as a bare string too: a `cust_` id, or else a source_id. It is read
 * as the object form it stands for.
 */
const customerRef = z.preprocess(
  (value) =>
    typeof value === "string" && value.length > 0
      ? value.startsWith("cust_")
        ? { id: value }
        : { source_id: value }
      : value,
  customerInputSchema,
);

/** The body of POST /v1/loyalties/{campaignId}/members. */
export const assignCardBodySchema = z.object({
  customer: customerRef,
  voucher: z.string().min(1).nullable().optional(),
  source_id: z.string().nullable().optional(),
  metadata: metadata.nullable().optional(),
  channel: z.string().nullable().optional(),
});

export type AssignCardInput = z.output<typeof assignCardBodySchema>;

export interface Assignment {
  voucher: Voucher;
  publication: Publication;
  customer: ResolvedCustomer["customer"];
  /** What the webhooks are told, in order: the customer created or updated (if so), then the publication. */
  notifications: Notification[];
}

/**
 * POST /v1/loyalties/{campaignId}/members: the check, then the write. Every rule is checked before anything is
 * written, and the write cannot fail on its input and happens in one synchronous step, so a refused request
 * changes nothing and two concurrent requests can never be handed the same card (the event loop runs one
 * assignment at a time). A project that keeps its most assignments (`caps.membersPerProject`, counted as
 * publications) refuses one more once everything else about it holds.
 */
export function assignCard(
  project: Project,
  campaignRef: string,
  input: AssignCardInput,
  caps: Pick<Caps, "membersPerProject">,
): Assignment {
  return writeAssignment(project, input, checkAssignment(project, campaignRef, input, caps));
}

/** What a checked assignment writes: the campaign, the customer as resolved, and the card to hand out. */
interface CheckedAssignment {
  campaign: Campaign;
  resolved: ResolvedCustomer;
  /** An existing card, or a new one (AUTO_UPDATE) not stored yet. */
  card: Voucher;
}

/** Reads only: every rule of the service, in its order, each refusal one of its errors. */
function checkAssignment(
  project: Project,
  campaignRef: string,
  input: AssignCardInput,
  caps: Pick<Caps, "membersPerProject">,
): CheckedAssignment {
  const campaign = findCampaign(project, campaignRef);
  if (campaign.campaign_type !== "LOYALTY_PROGRAM")
    throw invalidCampaignType(campaign.id, campaign.campaign_type);
  const resolved = resolveCustomer(project, input.customer);
  if (input.source_id && project.publications.findBySourceId(input.source_id))
    throw duplicateSourceId(input.source_id);

  const now = project.clock.now();
  const chosen = input.voucher ? namedCard(project, campaign, input.voucher, now) : undefined;
  if (
    campaign.join_once &&
    !resolved.isNew &&
    project.vouchers.heldBy(resolved.customer.id, campaign.id).length > 0
  )
    throw customerAlreadyJoined();
  const card = chosen ?? nextOpenCard(project, campaign, now) ?? newCard(project, campaign);
  if (project.publications.size >= caps.membersPerProject)
    throw limitExceeded(
      `Project ${project.id}`,
      "card assignments",
      caps.membersPerProject,
      CAP_VARIABLES.membersPerProject,
    );
  return { campaign, resolved, card };
}

/** Writes a checked assignment: the customer, the publication and the card, and what the webhooks are told. */
function writeAssignment(project: Project, input: AssignCardInput, checked: CheckedAssignment): Assignment {
  const { campaign, resolved, card } = checked;
  const customer = commitCustomer(project, resolved);
  const customerChange = customerNotification(project, resolved);
  const at = project.clock.iso();
  const publication: Publication = {
    id: project.ids.v1Id("pub"),
    object: "publication",
    created_at: at,
    customer_id: customer.id,
    campaign_id: campaign.id,
    voucher_id: card.id,
    channel: input.channel ?? "API",
    source_id: input.source_id ?? null,
    metadata: input.metadata ?? {},
    result: "SUCCESS",
  };
  project.publications.put(publication);
  const voucher = project.vouchers.put({
    ...card,
    holder_id: customer.id,
    publish: { ...card.publish, count: card.publish.count + 1 },
    updated_at: at,
  });
  const published = publicationNotifications({ customer, campaign, publication, voucher });
  const notifications = customerChange ? [customerChange, ...published] : published;
  return { voucher, publication, customer, notifications };
}

/** The members endpoint takes a campaign's id or its unique name. */
function findCampaign(project: Project, ref: string): Campaign {
  const campaign = project.campaigns.find(ref) ?? project.campaigns.findByName(ref);
  if (!campaign) throw notFound("campaign", ref);
  return campaign;
}

/** A card asked for by code: one of this campaign's, unpublished and within its validity. */
function namedCard(project: Project, campaign: Campaign, code: string, now: number): Voucher {
  const card = project.vouchers.findByCode(code);
  if (!card || card.campaign_id !== campaign.id) throw notFound("voucher", code);
  if (card.holder_id || card.publish.count > 0) throw voucherAlreadyPublished(card.id);
  const refusal = invalidity(card, now);
  if (refusal) throw refusal;
  return card;
}

/** The first open card, in the campaign's stable order, that is inside its validity window now. */
function nextOpenCard(project: Project, campaign: Campaign, now: number): Voucher | undefined {
  return project.vouchers.firstOpenCard(campaign.id, (card) => isUsable(card, now));
}

/**
 * No card left: an AUTO_UPDATE campaign makes one in its code format (never a code the project has), a STATIC one
 * refuses. The new card is only stored when the assignment commits.
 */
function newCard(project: Project, campaign: Campaign): Voucher {
  if (campaign.type !== "AUTO_UPDATE") throw noVoucherSuitableForPublication();
  const code = generateCode(
    campaign.voucher.code_config,
    (candidate) => !!project.vouchers.findByCode(candidate),
    project.ids,
  );
  if (code === undefined) throw noVoucherSuitableForPublication();
  const points = campaign.voucher.loyalty_card?.points ?? 0;
  return completeVoucher(
    {
      id: project.ids.v1Id("v"),
      code,
      campaign_id: campaign.id,
      type: campaign.voucher.type,
      discount: null,
      gift: null,
      loyalty_card: campaign.voucher.type === "LOYALTY_CARD" ? { points, balance: points } : null,
      start_date: campaign.start_date,
      expiration_date: campaign.expiration_date,
      validity_timeframe: null,
      validity_day_of_week: null,
      active: true,
      additional_info: null,
      metadata: {},
      is_referral_code: campaign.voucher.is_referral_code,
      created_at: project.clock.iso(),
      updated_at: null,
      holder_id: null,
      object: "voucher",
    },
    campaign,
    0,
  );
}

import { z } from "zod";
import { CLOCK_OFFSET_LIMIT_MS, clockRangeProblem } from "../../platform/clock.js";
import { apiKeySchema } from "../auth/api-key.js";
import { tokenSchema } from "../auth/token-store.js";
import { campaignSchema } from "../campaigns/campaign.js";
import { customerSchema } from "../customers/customer.js";
import { earningRuleSchema } from "../earning-rules/earning-rule.js";
import { recordedEventSchema } from "../events/event.js";
import { eventSchemaSchema } from "../events/event-schema.js";
import { incentiveSchema } from "../incentives/incentive.js";
import { locationSchema } from "../locations/location.js";
import { publicationSchema } from "../publications/publication.js";
import { segmentSchema } from "../segments/segment.js";
import { tierStructureSchema } from "../tiers/tier-structure.js";
import { voucherSchema } from "../vouchers/voucher.js";
import { webhookSchema } from "../webhooks/endpoint.js";
import { checkReferences } from "./references.js";
import { projectSettingsSchema } from "./settings.js";

export { COLLECTIONS, type CollectionName } from "./collections.js";

export const PROJECT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A moment a project's clock stands at: within the range every stored instant derived from it stays valid in. */
const clockInstant = z.iso.datetime({ offset: true }).superRefine((value, context) => {
  const problem = clockRangeProblem(Date.parse(value));
  if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
});

/**
 * Everything a project holds, in the service's shapes: the format of fixture folders, of state exports and of the
 * control API. The collections are the keys below; on disk each lives in a file of its own (see fixtures/README).
 */
export const projectDocumentSchema = z
  .strictObject({
    project: z.strictObject({
      id: z.string().regex(PROJECT_ID, "must be 1-63 lowercase letters, digits, - or _"),
      name: z.string().min(1).optional(),
      settings: projectSettingsSchema.default({}),
      /**
       * How far the project's clock runs ahead of (or behind) the server's, as the control API left it. An offset
       * rather than a moment, so a restored demo keeps moving with real time instead of freezing at the save.
       */
      clock: z
        .strictObject({
          /**
           * Enough to reach any moment of the clock's range from any other; a running clock that would show one
           * outside it stands still at the end it passed (see ProjectClock).
           */
          offset_ms: z.number().int().min(-CLOCK_OFFSET_LIMIT_MS).max(CLOCK_OFFSET_LIMIT_MS),
          /** Set while the clock stands still: the moment it shows (a frozen clock stays frozen across restarts). */
          frozen_at: clockInstant.optional(),
        })
        .default({ offset_ms: 0 }),
      /**
       * The project's own seed (given when it was created through the control API): every value the server makes
       * up for it follows from this, whatever the server's seed. Predictable by design: for tests only.
       */
      seed: z.string().min(1).max(200).optional(),
    }),
    api_keys: z.array(apiKeySchema).default([]),
    tokens: z.array(tokenSchema).default([]),
    locations: z.array(locationSchema).default([]),
    campaigns: z.array(campaignSchema).default([]),
    vouchers: z.array(voucherSchema).default([]),
    customers: z.array(customerSchema).default([]),
    publications: z.array(publicationSchema).default([]),
    segments: z.array(segmentSchema).default([]),
    tier_structures: z.array(tierStructureSchema).default([]),
    incentives: z.array(incentiveSchema).default([]),
    earning_rules: z.array(earningRuleSchema).default([]),
    event_schemas: z.array(eventSchemaSchema).default([]),
    events: z.array(recordedEventSchema).default([]),
    webhooks: z.array(webhookSchema).default([]),
  })
  .superRefine(checkReferences);

export type ProjectDocumentInput = z.input<typeof projectDocumentSchema>;
export type ProjectDocument = z.output<typeof projectDocumentSchema>;

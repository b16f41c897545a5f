import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks/types.js";
import { needsContract } from "./contract-skips.js";
import { convertNullable, validateWebhookData, WEBHOOK_TYPES } from "./webhook-contract.js";

const customer = { id: "cust_1", name: "A", source_id: "a", metadata: {}, object: "customer" };
const voucher = {
  id: "v_1",
  code: "C",
  type: "LOYALTY_CARD",
  created_at: "2026-01-01T00:00:00.000Z",
  object: "voucher",
};

describe("the webhooks contract helper", () => {
  it("knows every type an operation of ours notifies", needsContract("webhooks"), () => {
    for (const type of WEBHOOK_EVENT_TYPES) expect(WEBHOOK_TYPES).toContain(type);
  });

  it("reads `nullable: true` as 'or null' and leaves everything else as it was", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string", nullable: true }, nullable: { type: "string" } },
    };
    expect(convertNullable(schema)).toEqual({
      type: "object",
      properties: { a: { anyOf: [{ type: "string" }, { type: "null" }] }, nullable: { type: "string" } },
    });
  });

  it(
    "accepts a valid data, refuses a missing required part, a null the schema does not allow and a wrong type",
    needsContract("webhooks"),
    () => {
      const data = { customer, campaign: null, publication: null, voucher };
      expect(() => validateWebhookData("customer.publication.succeeded", data)).not.toThrow();
      const { voucher: _dropped, ...withoutVoucher } = data;
      expect(() => validateWebhookData("customer.publication.succeeded", withoutVoucher)).toThrow(
        /must have required property 'voucher'/,
      );
      expect(() =>
        validateWebhookData("customer.publication.succeeded", {
          ...data,
          customer: { ...customer, name: null },
        }),
      ).toThrow(/\/customer\/name must be string/);
      expect(() =>
        validateWebhookData("voucher.published", { customer, voucher: { ...voucher, type: "COUPON" } }),
      ).toThrow(/\/voucher\/type must be equal to one of the allowed values/);
    },
  );

  it("refuses a type the vendor does not describe", needsContract("webhooks"), () => {
    expect(() => validateWebhookData("customer.invented", {})).toThrow(/no event EVENTS.CUSTOMER.INVENTED/);
  });
});

/**
 * The pins of `npm run contract:fetch` (scripts/contract-fetch.ts): which of the vendor's public files the three
 * contract files the tests read are built from, at which commit, and the SHA-256 of each as published. These are
 * facts about the vendor's repository, not its content: the files themselves are downloaded at run time and never
 * committed here.
 */

/** The vendor's public OpenAPI repository (MIT). */
export const VENDOR_REPOSITORY = "https://github.com/voucherifyio/voucherify-openapi";
/** Where a file of it is downloaded from: `<base>/<commit>/<path>` (CONTRACT_SOURCE_URL names a mirror). */
export const VENDOR_RAW_BASE = "https://raw.githubusercontent.com/voucherifyio/voucherify-openapi";

/**
 * The commit every v1 part, the webhook description and the operations list come from; also the generally
 * available Loyalty v2 file's.
 */
export const HEAD_COMMIT = "65c33a7ab4384e3df9e382751157aca4b1352cd6";
/** The commit of the Loyalty v2 (beta) file: later commits renamed its paths and its incentives. */
export const LOYALTY_V2_COMMIT = "9502f5cee63efdd2fd3745bbc893c40ef4d55fb3";

export interface VendorFile {
  commit: string;
  path: string;
  /** SHA-256 (hex) of the file as published at that commit: a changed byte fails the fetch. */
  sha256: string;
}

export const VENDOR_FILES = {
  production: {
    commit: HEAD_COMMIT,
    path: "production/readOnly-openAPI.json",
    sha256: "346edb58f60f91b35ce09756735c7b479455383b1486b839c9031182128d336f",
  },
  oauth: {
    commit: HEAD_COMMIT,
    path: "documentation/openapi/oauth.json",
    sha256: "f7a4f00b79d82d9e897f9e156c4f286ec0a0f7733bf99f706d1f7fc811c640bd",
  },
  loyalties: {
    commit: HEAD_COMMIT,
    path: "documentation/openapi/loyalties.json",
    sha256: "fc1d98b3ffdcd43255983a7f009e6b5571e0e572a92ecca44901dcefea122eee",
  },
  events: {
    commit: HEAD_COMMIT,
    path: "documentation/openapi/events.json",
    sha256: "be79a160dc3620648a2b2aac4e67f19970e5fc520fb52ec37ecc915636f0ee9f",
  },
  /** The generally available Loyalty v2 (August 2026): the GA form's answers are checked against it. */
  loyaltiesV2Ga: {
    commit: HEAD_COMMIT,
    path: "documentation/openapi/loyalties-v2.json",
    sha256: "69be73b5cff0d1503b3ba06ea8123223c53e60f063a03cf4add646c8161750a9",
  },
  loyaltiesV2: {
    commit: LOYALTY_V2_COMMIT,
    path: "documentation/openapi/loyalties-v2.json",
    sha256: "5da58f0b5498175e1abc9b93c3c14b28a42290d1a43be9d8e714c36ff8b546cf",
  },
  webhooks: {
    commit: HEAD_COMMIT,
    path: "reference/OpenAPIWebhooks.json",
    sha256: "194a0b3b6db5ea7d6d56e630a73ff76fbeffc6647548d886d2957b94814646d3",
  },
  sdkReference: {
    commit: HEAD_COMMIT,
    path: "reference/readonly-sdks/js/OpenAPI.json",
    sha256: "35348d9c8fd00f08cc4783a75f1f7282e5fe5259f3133c9af6804b8efb3d94fa",
  },
} as const satisfies Record<string, VendorFile>;

export type VendorFileName = keyof typeof VENDOR_FILES;

/** The commit in which each HEAD file last changed (recorded in the built contract's x-source). */
export const LAST_CHANGED_IN: Record<string, string> = {
  "production/readOnly-openAPI.json": "2c273577471fc1893ffae7cc1910115ac2f8a8e4",
  "documentation/openapi/oauth.json": "9e33300cfcf675f7be701646d0d23738bd2786d4",
  "documentation/openapi/loyalties.json": "84f579dcb1f9264fdf3918257871643eeb2ac684",
  "documentation/openapi/events.json": "302ca66e65c4ece84714f8cdbf6fcde0a40ced0b",
};

/** The Loyalty v2 file's blob at its commit, and the commit that wrote that same content first. */
export const LOYALTY_V2_BLOB = "4629686f0f4b9dc9b2014a5c8731de815d3d0c71";
export const LOYALTY_V2_INTRODUCED_IN = "60d5fb36a7ce2615a2b7ac39118ceed386584567";

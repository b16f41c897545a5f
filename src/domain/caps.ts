/**
 * The caps and the variables that raise them: a leaf, so that every store refusing past a cap (keys, faults,
 * events, members, webhooks) and the registry read them without importing the project that holds those stores.
 */

/**
 * What the server and each project may keep, so that a load test, a runaway script or a CI server nobody cleans
 * cannot grow the memory without bound: past a cap the operation that would add one more is refused (409
 * `limit_exceeded`, naming the variable that raises it) and changes nothing. Customers, cards and publications
 * are bounded through them: an event or an assignment adds at most one customer, an assignment one publication
 * and at most one card. Caps count what a project holds, fixtures included, and apply to what the API adds;
 * fixtures, state files and state imports are loaded whole (imports are bounded by their body limit).
 */
export interface Caps {
  /** Projects of the server (POST /__mock/projects). */
  projects: number;
  /** API keys of a project (POST .../keys). */
  keysPerProject: number;
  /** Fault rules of a project (POST .../faults). */
  faultsPerProject: number;
  /** Custom events a project keeps (POST /v1/events). */
  eventsPerProject: number;
  /** Publications (loyalty card assignments) a project keeps (POST /v1/loyalties/{campaignId}/members). */
  membersPerProject: number;
  /** Webhook endpoints of a project (POST .../webhooks). */
  webhooksPerProject: number;
  /** Named snapshots of a project (POST .../snapshots): each holds a reference to every record it saved. */
  snapshotsPerProject: number;
  /**
   * The heap, in MiB, saving or restoring a snapshot may bring the server to (at most 85% of Node's heap limit,
   * whatever it is set to): memory is admitted before it is spent, and a save or restore past it is refused.
   */
  snapshotMemoryMb: number;
}

/**
 * The variable that sets each cap, as a user sets it, for the error that refuses past it. config/settings.ts
 * declares the same (test/control/caps.test.ts holds the two together); the domain cannot import the configuration.
 */
export const CAP_VARIABLES = {
  projects: "LOYALTY_MOCK_PROJECT_LIMIT",
  keysPerProject: "LOYALTY_MOCK_KEY_LIMIT",
  faultsPerProject: "LOYALTY_MOCK_FAULT_LIMIT",
  eventsPerProject: "LOYALTY_MOCK_EVENT_LIMIT",
  membersPerProject: "LOYALTY_MOCK_MEMBER_LIMIT",
  webhooksPerProject: "LOYALTY_MOCK_WEBHOOK_LIMIT",
  snapshotsPerProject: "LOYALTY_MOCK_SNAPSHOT_LIMIT",
  snapshotMemoryMb: "LOYALTY_MOCK_SNAPSHOT_MEMORY_MB",
} as const satisfies Record<keyof Caps, string>;

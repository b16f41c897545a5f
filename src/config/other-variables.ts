/**
 * The variables with the settings' prefix that are not settings of the server, each read by another part of the
 * package or by a file the pages give. A user exports them in the same shell or CI job that starts the server
 * (`verify` and `play` take their key pairs from them; the compose file its image and host port), so the server
 * takes them for what they are rather than warning of them as typos of a setting. Declared here, below the
 * commands that read them, so that the settings' reader knows them without importing a command.
 */

/** `loyalty-mock verify`'s key pairs: the target's, and the mock side's when it is a server of its own. */
export const VERIFY_VARIABLES = {
  targetAppId: "LOYALTY_MOCK_VERIFY_APP_ID",
  targetAppToken: "LOYALTY_MOCK_VERIFY_APP_TOKEN",
  mockAppId: "LOYALTY_MOCK_VERIFY_MOCK_APP_ID",
  mockAppToken: "LOYALTY_MOCK_VERIFY_MOCK_APP_TOKEN",
} as const;

/** `loyalty-mock play`'s key pair for the project it plays in. */
export const PLAY_VARIABLES = {
  appId: "LOYALTY_MOCK_PLAY_APP_ID",
  appToken: "LOYALTY_MOCK_PLAY_APP_TOKEN",
} as const;

/**
 * Read outside the package: the Docker guide's compose file (`docs/examples/compose.yaml`) takes its image and host
 * port from the first two, and a contributor's CI sets the third for the test suite, in the environment the
 * servers it starts inherit.
 */
const TOOLING_VARIABLES = ["LOYALTY_MOCK_IMAGE", "LOYALTY_MOCK_HOST_PORT", "LOYALTY_MOCK_REQUIRE_CONTRACT"];

/** Every prefixed variable that is not a setting and is still no typo. */
export const OTHER_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.values(VERIFY_VARIABLES),
  ...Object.values(PLAY_VARIABLES),
  ...TOOLING_VARIABLES,
]);

/** Wrong use of the command line; the bin prints the message and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

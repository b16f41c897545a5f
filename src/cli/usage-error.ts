/** Wrong use of the command line; the bin prints the message and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
  /** The command whose --help the hint points at (the server's when absent). */
  readonly command: { readonly name: string } | undefined;

  constructor(message: string, command?: { readonly name: string }) {
    super(message);
    this.command = command;
  }
}

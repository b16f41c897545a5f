/**
 * The secrets of a run (both sides' key pairs and the tokens they issued) taken out of everything verify prints or
 * writes. The target is not trusted to put them only where a client expects: a hostile or broken one may echo the
 * app token as an object key, in an error's `key`, in `Content-Type` or in a redirect's `Location`, in another case
 * or percent-encoded. Each is masked wherever it appears, in keys as in values, whatever the case; a secret shorter
 * than four characters only where it is a whole value or key (masked inside any text it would garble every line).
 */
const MASK = "<secret>";
const SHORTEST_INSIDE = 4;

const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

export class Redactor {
  readonly #secrets: readonly string[];
  #pattern: RegExp | undefined;
  #exact = new Set<string>();
  /** How many secrets the pattern was made from. */
  #seen = -1;

  /** `secrets` is read at each use: a token added to the list later is masked from then on. */
  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
  }

  #compile(): void {
    const forms = new Set<string>();
    this.#exact = new Set();
    for (const secret of this.#secrets) {
      if (!secret) continue;
      this.#exact.add(secret.toLowerCase());
      if (secret.length < SHORTEST_INSIDE) continue;
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
    }
    // The longest first, so a secret that holds another is masked whole.
    const alternatives = [...forms].sort((a, b) => b.length - a.length).map(literal);
    this.#pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join("|"), "gi");
  }

  text(value: string): string {
    if (this.#seen !== this.#secrets.length) {
      this.#compile();
      this.#seen = this.#secrets.length;
    }
    if (this.#exact.has(value.toLowerCase())) return MASK;
    return this.#pattern ? value.replace(this.#pattern, MASK) : value;
  }

  /**
   * A JSON value with every string, key included, masked. Objects are rebuilt from their own keys (`__proto__` and
   * `constructor` stay plain properties); two keys that mask alike are kept apart as `<secret>`, `<secret>#2`.
   */
  value(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value === null || typeof value !== "object") return value;
    const entries: [string, unknown][] = [];
    const taken = new Set<string>();
    for (const key of Object.keys(value)) {
      const base = this.text(key);
      let masked = base;
      for (let n = 2; taken.has(masked); n++) masked = `${base}#${n}`;
      taken.add(masked);
      entries.push([masked, this.value((value as Record<string, unknown>)[key])]);
    }
    return Object.fromEntries(entries);
  }
}

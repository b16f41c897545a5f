import { compilePathPattern, isPathPattern, type PathMatcher } from "../path-pattern.js";

interface Entry<R> {
  rule: R;
  /** Order of addition: the first added of all matching rules wins. */
  seq: number;
  matches: PathMatcher;
  /** The pattern's text before its first wildcard: a path that does not start with it cannot match. */
  prefix: string;
}

/**
 * Rules by what they match, so a request looks only at those that could match it: a rule for an exact path is
 * found by a map lookup on "METHOD path" (or on the path, for a rule of any method), and only the rules with a
 * pattern (`*`, `{name}`, `**`), few in practice, are tried one by one, each first by its literal start (a
 * `/v2/**` rule costs a `/v1/...` request one string comparison). Of the candidates, the one added first wins, as
 * when all the rules were scanned in order.
 */
export class RuleIndex<R extends { id: string; method: string; path: string }> {
  readonly #byId = new Map<string, Entry<R>>();
  /** Exact path and method ("GET /v1/events"), or exact path for any method ("* /v1/events"). */
  readonly #exact = new Map<string, Entry<R>[]>();
  readonly #patterns: Entry<R>[] = [];
  #seq = 0;

  get size(): number {
    return this.#byId.size;
  }

  add(rule: R): void {
    const prefix = rule.path.slice(0, rule.path.search(/[*{]|$/));
    const entry = { rule, seq: this.#seq++, matches: compilePathPattern(rule.path), prefix };
    this.#byId.set(rule.id, entry);
    const list = this.#listOf(rule, true);
    list.push(entry);
  }

  /** The earliest-added rule matching the request; `method` in upper case, as rules store theirs. */
  first(method: string, path: string): R | undefined {
    let best = this.#exact.get(`${method} ${path}`)?.[0];
    const any = this.#exact.get(`* ${path}`)?.[0];
    if (any && (!best || any.seq < best.seq)) best = any;
    for (const entry of this.#patterns) {
      // Patterns are kept in order of addition: past the best exact candidate, none can win.
      if (best && entry.seq > best.seq) break;
      if (!path.startsWith(entry.prefix)) continue;
      if ((entry.rule.method === "*" || entry.rule.method === method) && entry.matches(path)) {
        best = entry;
        break;
      }
    }
    return best?.rule;
  }

  get(id: string): R | undefined {
    return this.#byId.get(id)?.rule;
  }

  /** Every rule, in order of addition. */
  list(): R[] {
    return [...this.#byId.values()].map((entry) => entry.rule);
  }

  remove(id: string): R | undefined {
    const entry = this.#byId.get(id);
    if (!entry) return undefined;
    this.#byId.delete(id);
    const list = this.#listOf(entry.rule, false);
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0 && !isPathPattern(entry.rule.path)) this.#exact.delete(keyOf(entry.rule));
    return entry.rule;
  }

  clear(): number {
    const count = this.#byId.size;
    this.#byId.clear();
    this.#exact.clear();
    this.#patterns.length = 0;
    return count;
  }

  #listOf(rule: R, create: boolean): Entry<R>[] {
    if (isPathPattern(rule.path)) return this.#patterns;
    const key = keyOf(rule);
    let list = this.#exact.get(key);
    if (!list) {
      list = [];
      if (create) this.#exact.set(key, list);
    }
    return list;
  }
}

function keyOf(rule: { method: string; path: string }): string {
  return `${rule.method} ${rule.path}`;
}

/**
 * A name as an audience reads it: an event's `user_subscribed` or `userSubscribed`, a webhook's
 * `customer.loyalty.tier.upgraded`, as words ("user subscribed", "customer loyalty tier upgraded"). The API keeps
 * the names; the audience views say them.
 */
export function wordsOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s._\-:/]+/)
    .filter((word) => word !== "");
  return words.length === 0
    ? name
    : words.map((word) => (/^[A-Z][a-z]/.test(word) ? word.toLowerCase() : word)).join(" ");
}

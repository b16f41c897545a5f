import type { RecordedEvent } from "../events/event.js";
import { addInt64, type Int64, subtractInt64 } from "../shared/int64.js";
import type { VoucherInput } from "../vouchers/voucher.js";
import { type ReadonlyTally, SortedTally } from "./sorted-tally.js";

/** A member of the program: a loyalty card someone holds. */
export function isMember(card: VoucherInput): boolean {
  return card.loyalty_card != null && Boolean(card.holder_id);
}

const pointsOf = (card: VoucherInput): number => Number(card.loyalty_card?.points ?? 0);
const balanceOf = (card: VoucherInput): number => Number(card.loyalty_card?.balance ?? 0);

/**
 * The program's figures (the overview's), kept up to date as cards and events are written rather than counted from
 * every card on each call: the members, their points and balances, how many members stand at each points value (a
 * tier holds the cards within its range), and the points the members' cards earned at each moment. A card's
 * earnings count while the card is a member's, as the overview counts them: they leave the series when the card
 * leaves its holder, and come back with it.
 */
export class MemberFigures {
  members = 0;
  pointsIssued: Int64 = 0;
  balanceOutstanding: Int64 = 0;
  readonly #points = new SortedTally();
  readonly #earnings = new SortedTally();
  /** card id -> the events that earned it points, each once, in no particular order (one without an array). */
  readonly #earningEvents = new Map<string, RecordedEvent | RecordedEvent[]>();
  /** Whether the store holds this card as a member's now: whose earnings count. */
  readonly #isMember: (cardId: string) => boolean;

  constructor(isMemberCard: (cardId: string) => boolean) {
    this.#isMember = isMemberCard;
  }

  /** Members by points: count how many stand within a tier's range. */
  get points(): ReadonlyTally {
    return this.#points;
  }

  /** Points the members' cards earned, by the time of the event that earned them (ms since the epoch). */
  get earnings(): ReadonlyTally {
    return this.#earnings;
  }

  /** The events that earned a card points (whoever holds it now). */
  earningEventsOf(cardId: string): readonly RecordedEvent[] {
    const events = this.#earningEvents.get(cardId);
    return events === undefined ? [] : Array.isArray(events) ? events : [events];
  }

  cardChanged(previous: VoucherInput | undefined, next: VoucherInput | undefined): void {
    const was = previous !== undefined && isMember(previous);
    const is = next !== undefined && isMember(next);
    if (was) this.#count(previous, -1);
    if (is) this.#count(next, 1);
    if (was === is) return;
    const id = (next ?? previous)?.id as string;
    for (const event of this.earningEventsOf(id)) this.#tallyEarnings(event, is ? 1 : -1, id);
  }

  eventChanged(previous: RecordedEvent | undefined, next: RecordedEvent | undefined): void {
    if (previous !== undefined && previous.earned.length > 0) {
      this.#tallyEarnings(previous, -1);
      forEachCard(previous, (cardId) => this.#unlist(cardId, previous));
    }
    if (next === undefined || next.earned.length === 0) return;
    forEachCard(next, (cardId) => this.#list(cardId, next));
    this.#tallyEarnings(next, 1);
  }

  /**
   * An event of the store the figures are built from, listed under its cards without counting its points: the
   * build lists every event first, then counts each member card's (cardChanged), so it never asks the card store
   * whether a card is a member's, a lookup among a million cards for each event.
   */
  seedEvent(event: RecordedEvent): void {
    if (event.earned.length > 0) forEachCard(event, (cardId) => this.#list(cardId, event));
  }

  #list(cardId: string, event: RecordedEvent): void {
    const events = this.#earningEvents.get(cardId);
    if (events === undefined) this.#earningEvents.set(cardId, event);
    else if (Array.isArray(events)) events.push(event);
    else this.#earningEvents.set(cardId, [events, event]);
  }

  #unlist(cardId: string, event: RecordedEvent): void {
    const events = this.#earningEvents.get(cardId);
    if (events === event) this.#earningEvents.delete(cardId);
    else if (Array.isArray(events) && events.includes(event)) {
      events.splice(events.indexOf(event), 1);
      if (events.length === 1) this.#earningEvents.set(cardId, events[0] as RecordedEvent);
    }
  }

  #count(card: VoucherInput, sign: 1 | -1): void {
    const points = pointsOf(card);
    const balance = balanceOf(card);
    this.members += sign;
    this.pointsIssued = (sign === 1 ? addInt64 : subtractInt64)(this.pointsIssued, points);
    this.balanceOutstanding = (sign === 1 ? addInt64 : subtractInt64)(this.balanceOutstanding, balance);
    this.#points.add(points, sign, 0);
  }

  /** Adds (or takes away) an event's earnings for member cards, or only for `onlyCard` (a card that joined or left). */
  #tallyEarnings(event: RecordedEvent, sign: 1 | -1, onlyCard?: string): void {
    const at = Date.parse(event.created_at);
    // An event at no readable time is in no bucket of the series (the views filter it out as not yet past).
    if (Number.isNaN(at)) return;
    for (const earning of event.earned) {
      if (onlyCard !== undefined ? earning.voucher_id !== onlyCard : !this.#isMember(earning.voucher_id))
        continue;
      this.#earnings.add(at, sign, sign === 1 ? earning.points : subtractInt64(0, earning.points));
    }
  }
}

/** Calls `each` with every card an event earned points for, once each (an event earns for a card or two). */
function forEachCard(event: RecordedEvent, each: (cardId: string) => void): void {
  const { earned } = event;
  for (let i = 0; i < earned.length; i++) {
    const cardId = (earned[i] as (typeof earned)[number]).voucher_id;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = (earned[j] as (typeof earned)[number]).voucher_id === cardId;
    if (!seen) each(cardId);
  }
}

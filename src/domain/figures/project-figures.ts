import { eachInSteps, type Steps } from "../../platform/steps.js";
import type { Customer, CustomerStore } from "../customers/customer.js";
import type { EventStore, RecordedEvent } from "../events/event.js";
import type { Publication, PublicationStore } from "../publications/publication.js";
import type { VoucherInput } from "../vouchers/voucher.js";
import type { VoucherStore } from "../vouchers/voucher-store.js";
import { CustomerOrder } from "./customer-order.js";
import { isMember, MemberFigures } from "./member-figures.js";
import { RecordGroups } from "./record-groups.js";
import { TimedEvents } from "./timed-events.js";

/** The stores the figures follow. */
export interface FiguredStores {
  readonly customers: CustomerStore;
  readonly vouchers: VoucherStore;
  readonly publications: PublicationStore;
  readonly events: EventStore;
}

/**
 * What the audience views (the overview, a customer's story, the activity) read of a project, kept up to date as
 * its records are written, so a view costs what it shows rather than a pass over every card (issue 44: 13 s of CPU
 * for an overview at a million cards). Built with the project, from the cards someone holds (which the card store
 * already lists) and the publications and events, never from the cards nobody holds; then told of every put and
 * delete of those three stores (RecordStore.observe), which the operations pay a few map and array steps for.
 * The customer store tells it of new customers too, for the order a search walks them in (customer-order.ts).
 */
export class ProjectFigures {
  readonly program: MemberFigures;
  /** The customers newest first, for the dashboard's search. */
  readonly customers: CustomerOrder<Customer>;
  readonly #cards: RecordGroups<VoucherInput>;
  readonly #publications: RecordGroups<Publication>;
  readonly #events: RecordGroups<RecordedEvent>;
  /** customer id -> type -> her events of that type; made the first time the activity asks, then kept up. */
  readonly #typed = new Map<string, Map<string, TimedEvents<RecordedEvent>>>();

  private constructor(stores: FiguredStores) {
    const { customers, vouchers, publications, events } = stores;
    this.customers = new CustomerOrder(
      () => customers.storedValues(),
      (id) => customers.stored(id),
    );
    this.program = new MemberFigures((id) => {
      const card = vouchers.stored(id);
      return card !== undefined && isMember(card);
    });
    this.#cards = new RecordGroups(
      (card) => (isMember(card) ? (card.holder_id as string) : undefined),
      () => vouchers.records(),
    );
    this.#publications = new RecordGroups(
      (publication) => publication.customer_id,
      () => publications.storedValues(),
    );
    this.#events = new RecordGroups(
      (event) => event.customer_id,
      () => events.storedValues(),
    );
  }

  /**
   * The figures of stores just built, a step at a time (nothing writes to the stores meanwhile: the project is
   * not installed yet), then told of every later change.
   */
  static *build(stores: FiguredStores): Steps<ProjectFigures> {
    const figures = new ProjectFigures(stores);
    const { vouchers, publications, events } = stores;
    yield* eachInSteps(publications.storedValues(), (publication) =>
      figures.#publications.change(undefined, publication),
    );
    yield* eachInSteps(events.storedValues(), (event) => {
      figures.program.seedEvent(event);
      figures.#events.change(undefined, event);
    });
    // Each member card counts the earnings of the events listed under it as it joins (MemberFigures.seedEvent).
    yield* eachInSteps(vouchers.heldRecords(), (card) => figures.#cardChanged(undefined, card));
    stores.customers.observe((previous, next) => figures.customers.change(previous, next));
    vouchers.observe((previous, next) => figures.#cardChanged(previous, next));
    publications.observe((previous, next) => figures.#publications.change(previous, next));
    events.observe((previous, next) => figures.#eventChanged(previous, next));
    return figures;
  }

  /** The loyalty cards a customer holds, in the card store's order. */
  cardsOf(customerId: string): readonly VoucherInput[] {
    return this.#cards.list(customerId);
  }

  /** The publications made for a customer, in the store's order. */
  publicationsOf(customerId: string): readonly Publication[] {
    return this.#publications.list(customerId);
  }

  /** The events a customer sent, in the store's order. */
  eventsOf(customerId: string): readonly RecordedEvent[] {
    return this.#events.list(customerId);
  }

  /** The customer's event of this type nearest `at` (ms), the first in the store's order among equally near ones. */
  nearestEvent(customerId: string, type: string, at: number): RecordedEvent | undefined {
    let byType = this.#typed.get(customerId);
    if (byType === undefined) {
      byType = new Map();
      for (const event of this.eventsOf(customerId)) typedOf(byType, event.type).add(event);
      this.#typed.set(customerId, byType);
    }
    return byType.get(type)?.nearest(at);
  }

  #cardChanged(previous: VoucherInput | undefined, next: VoucherInput | undefined): void {
    this.program.cardChanged(previous, next);
    this.#cards.change(previous, next);
  }

  #eventChanged(previous: RecordedEvent | undefined, next: RecordedEvent | undefined): void {
    this.program.eventChanged(previous, next);
    this.#events.change(previous, next);
    // A new event goes last, as in the store; any other change is rare enough to read her events again when asked.
    if (previous === undefined && next !== undefined) {
      const byType = this.#typed.get(next.customer_id);
      if (byType !== undefined) typedOf(byType, next.type).add(next);
      return;
    }
    if (previous !== undefined) this.#typed.delete(previous.customer_id);
    if (next !== undefined) this.#typed.delete(next.customer_id);
  }
}

function typedOf(byType: Map<string, TimedEvents<RecordedEvent>>, type: string): TimedEvents<RecordedEvent> {
  let events = byType.get(type);
  if (events === undefined) {
    events = new TimedEvents();
    byType.set(type, events);
  }
  return events;
}

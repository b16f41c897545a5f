/**
 * What an operation tells the webhooks about: one entry per notification the real service would send, in the order
 * the service would send them. The use case decides the type and `data` (it knows what happened); the webhooks
 * module wraps each in the vendor's envelope (`id`, `project_id`, `created_at`, `source`, `event`), signs it and
 * delivers it off the request path. A refused request produces none.
 */
export interface Notification {
  /** The vendor's event type as the envelope's `type` writes it, for example `voucher.published`. */
  readonly type: string;
  /** The id of the record the event is about: the envelope's `event.entity_id`. */
  readonly entityId: string;
  /**
   * The notification's `data`, valid against the vendor's schema for its type (v2024-01-01). Kept as given and
   * serialised only when it is sent, after the operation has answered: it must never be changed after notify (it
   * is built fresh per notification and may share parts of stored records, which are replaced, never changed).
   */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Where a handler hands its notifications once the operation has succeeded. */
export type Notify = (notifications: readonly Notification[]) => void;

/**
 * A notification whose `data` is built the first time it is read (when it is sent, or its outbox record read),
 * from inputs that never change: stored records, which are replaced by put, never changed in place. An operation
 * no endpoint hears and no one reads the outbox of then builds no payload.
 */
export function lazyNotification(
  type: string,
  entityId: string,
  build: () => Readonly<Record<string, unknown>>,
): Notification {
  return new LazyNotification(type, entityId, build);
}

/**
 * One object per notification (an object literal with a getter would be three: the object, the getter's closure
 * and its scope), as the outbox keeps hundreds of them unbuilt (issue 26).
 */
class LazyNotification implements Notification {
  #data: Readonly<Record<string, unknown>> | undefined;
  #build: (() => Readonly<Record<string, unknown>>) | undefined;

  constructor(
    readonly type: string,
    readonly entityId: string,
    build: () => Readonly<Record<string, unknown>>,
  ) {
    this.#build = build;
  }

  get data(): Readonly<Record<string, unknown>> {
    if (this.#data === undefined) {
      this.#data = (this.#build as () => Readonly<Record<string, unknown>>)();
      // Built once; the inputs the closure held can go.
      this.#build = undefined;
    }
    return this.#data;
  }

  /** As the object it stands for serialises: its type, entity and data. */
  toJSON(): Notification {
    return { type: this.type, entityId: this.entityId, data: this.data };
  }
}

/**
 * Results that never change while the server runs (the tools/list result, the resource listing and
 * the UI resources), serialised once at start-up: an answer carrying one of them splices the stored
 * JSON instead of serialising tens of kilobytes again on every request. Keyed by the result object
 * itself, which the SDK hands to the transport unchanged.
 */
/** A serialised result: its JSON as UTF-8, kept outside the JavaScript heap and written as it is. */
export interface StoredJson {
  readonly json: Buffer;
}

const SERIALISED = new WeakMap<object, StoredJson>();

/** Freezes the result deeply and remembers its JSON; returns the same object. */
export function serialisedOnce<T extends object>(result: T): T {
  deepFreeze(result);
  SERIALISED.set(result, { json: Buffer.from(JSON.stringify(result)) });
  return result;
}

/** The stored JSON of a result registered with {@link serialisedOnce}, if it is one. */
export function storedJson(result: unknown): StoredJson | undefined {
  return typeof result === 'object' && result !== null ? SERIALISED.get(result) : undefined;
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
}

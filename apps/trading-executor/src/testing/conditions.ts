/** Polls a condition (no fixed sleeps): the value once `done` holds, or an error after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A transaction hook that holds until `release()`: `reached` resolves once the hook runs. */
export function gate(): { hold: () => Promise<void>; reached: Promise<void>; release: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  return {
    hold: async () => {
      reach();
      await opened;
    },
    reached,
    release,
  };
}

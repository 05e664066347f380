import type { StateWrite } from '@paper/alerts-data';
import type { RuleStates, RuleStateKey } from './watch-state';

/**
 * The rule states as this process last committed them. Valid only while the generation stored with
 * the poll status is the one this process wrote last (no other replica polled in between); otherwise
 * the states are read from PostgreSQL again.
 */
export class RuleStateCache {
  private generation: string | undefined;
  private states = new Map<string, RuleStates>();

  read(generation: string | undefined): Map<string, RuleStates> | undefined {
    return generation !== undefined && generation === this.generation ? this.states : undefined;
  }

  load(states: Map<string, RuleStates>, generation: string | undefined): void {
    this.states = states;
    this.generation = generation;
  }

  /** Applies a committed cycle's writes and drops watches that no longer exist. */
  apply(writes: readonly StateWrite[], generation: string, liveWatchIds: ReadonlySet<string>): void {
    for (const w of writes) {
      const entry: RuleStates = { ...(this.states.get(w.scopeId) ?? {}) };
      if (w.state === null) delete entry[w.rule as RuleStateKey];
      else (entry as Record<string, unknown>)[w.rule] = w.state;
      this.states.set(w.scopeId, entry);
    }
    for (const id of this.states.keys()) if (!liveWatchIds.has(id)) this.states.delete(id);
    this.generation = generation;
  }

  invalidate(): void {
    this.generation = undefined;
    this.states = new Map();
  }
}

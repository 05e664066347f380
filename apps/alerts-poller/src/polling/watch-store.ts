import { Inject, Injectable } from '@nestjs/common';
import { pollDetails, watchesToPoll, watchRuleStates, type WatchRow } from '@paper/alerts-data';
import { DataSource } from 'typeorm';
import { RULE_STATE_KEYS, type RuleStates, type RuleStateKey } from './watch-state';

/** Sets one rule's state (a key and its own state type, checked together). */
function setRuleState<K extends RuleStateKey>(states: RuleStates, rule: K, state: RuleStates[K]): void {
  states[rule] = state;
}

/** Reads watches, rule states and the poll status document of the alerts schema. */
@Injectable()
export class WatchStore {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  watches(): Promise<WatchRow[]> {
    return watchesToPoll(this.dataSource);
  }

  async ruleStates(): Promise<Map<string, RuleStates>> {
    const states = new Map<string, RuleStates>();
    for (const row of await watchRuleStates<RuleStates>(this.dataSource, RULE_STATE_KEYS)) {
      const entry = states.get(row.watch_id) ?? {};
      setRuleState(entry, row.rule, row.state);
      states.set(row.watch_id, entry);
    }
    return states;
  }

  pollDetails<T extends object>(name: string): Promise<Partial<T>> {
    return pollDetails<T>(this.dataSource, name);
  }
}

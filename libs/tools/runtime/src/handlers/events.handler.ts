import { Inject, Injectable } from '@nestjs/common';
import { GET_EVENTS, PUBLIC_EVENT_TYPES, type ToolData, type ToolInput } from '@paper/contracts';
import { eventLogBounds, readEvents } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

/**
 * get_events: a page of the event log after a cursor. With a token (the authenticated family, MCP with a
 * token) every event of the connected wallet; without one the public activity (trades, market status).
 */
@Injectable()
export class EventsHandler implements ToolHandler<typeof GET_EVENTS> {
  readonly tool = GET_EVENTS;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_EVENTS>, ctx: ToolContext): Promise<ToolOutcome<ToolData<typeof GET_EVENTS>>> {
    const own = ctx.family === 'me' && ctx.wallet !== undefined;
    const wallet = own ? ctx.wallet : input.wallet;
    const publicTypes: readonly string[] = PUBLIC_EVENT_TYPES;
    const types = own ? input.types : (input.types ?? PUBLIC_EVENT_TYPES).filter((t) => publicTypes.includes(t));
    if (types && types.length === 0) {
      return {
        summary: 'No public event has these types: without a token only trades and market status changes are shown.',
        data: {
          events: [],
          nextCursor: input.after,
          reset: false,
          more: false,
          latestCursor: (await eventLogBounds(this.db)).newest,
        },
      };
    }
    const bounds = await eventLogBounds(this.db);
    // Events after the cursor were pruned when the oldest kept is further on than the next id could be.
    const reset = BigInt(bounds.oldest) > BigInt(input.after) + 1n && BigInt(input.after) > 0n;
    const after = reset ? (BigInt(bounds.oldest) - 1n).toString() : input.after;
    const page = await readEvents(this.db, {
      after,
      limit: input.limit + 1,
      types: types as never,
      wallet,
      market: input.market,
    });
    const more = page.length > input.limit;
    const events = more ? page.slice(0, input.limit) : page;
    const nextCursor = events.length > 0 ? events[events.length - 1]!.id : after;
    const whose = own
      ? `of ${shortAddress(wallet!)}`
      : wallet
        ? `public activity of ${shortAddress(wallet)}`
        : 'public';
    const summary =
      (reset
        ? 'Events after your cursor are older than the retention and were dropped; starting at the oldest kept. '
        : '') +
      (events.length === 0
        ? `No new ${whose} events after cursor ${after}.`
        : `${events.length} ${whose} event${events.length === 1 ? '' : 's'} after cursor ` +
          `${after}${more ? ', more follow' : ''}: ${describe(events)}. Next cursor: ${nextCursor}.`);
    return { summary, data: { events, nextCursor, reset, more, latestCursor: bounds.newest } };
  }
}

function describe(events: readonly { type: string }[]): string {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts].map(([type, n]) => `${n} ${type}`).join(', ');
}

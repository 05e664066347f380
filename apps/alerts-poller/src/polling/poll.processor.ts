import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ALERTS_POLL_QUEUE } from '@paper/contracts';
import { APP_CONFIG, metricsRegistry, QueueRegistry, REDIS } from '@paper/nest-infra';
import type { Redis } from 'ioredis';
import { Gauge, Histogram } from 'prom-client';
import type { AlertsPollerConfig } from '../config/alerts-poller.config';
import { PollLeader } from './poll-leader';
import { ProtocolPollService } from './protocol-poll.service';
import { WalletPollService } from './wallet-poll.service';

const cycleSeconds = new Histogram({
  name: 'alerts_poller_cycle_seconds',
  help: 'Duration of poll cycles by poll',
  labelNames: ['poll', 'outcome'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
const watchedGauge = new Gauge({
  name: 'alerts_poller_watches',
  help: 'Watches evaluated by the last wallet cycle',
  registers: [metricsRegistry],
});

/**
 * Schedules the polls with BullMQ job schedulers (one job per period, whichever replica takes it) and
 * runs them; a Redis lease makes sure two passes of the same poll never overlap, and a pass whose lease
 * was lost while it ran commits nothing (see PollLeader and AlertWriter's commit fence).
 */
@Injectable()
export class PollProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(PollProcessor.name);
  private readonly leaders: Record<'poll-wallets' | 'poll-protocol', PollLeader>;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly wallets: WalletPollService,
    private readonly protocol: ProtocolPollService,
    @Inject(REDIS) redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AlertsPollerConfig,
  ) {
    const key = (name: string) => `${config.REDIS_PREFIX}:alerts:poll-leader:${name}`;
    this.leaders = {
      'poll-wallets': new PollLeader(redis, key('wallets'), config.ALERTS_POLL_LOCK_MS),
      'poll-protocol': new PollLeader(redis, key('protocol'), config.ALERTS_POLL_LOCK_MS),
    };
  }

  onApplicationBootstrap(): void {
    this.queues.schedule(ALERTS_POLL_QUEUE, 'poll-wallets', this.config.ALERTS_POLL_MS);
    this.queues.schedule(ALERTS_POLL_QUEUE, 'poll-protocol', this.config.ALERTS_PROTOCOL_POLL_MS);
    this.queues.worker(
      ALERTS_POLL_QUEUE,
      { 'poll-wallets': () => this.handle('poll-wallets'), 'poll-protocol': () => this.handle('poll-protocol') },
      { concurrency: 2 },
    );
  }

  async handle(name: 'poll-wallets' | 'poll-protocol'): Promise<unknown> {
    const end = cycleSeconds.startTimer({ poll: name });
    try {
      const report = await this.leaders[name].runExclusive<object>(async (lease) => {
        if (name === 'poll-protocol') return this.protocol.run(lease);
        const wallets = await this.wallets.run(lease);
        watchedGauge.set(wallets.watches);
        return wallets;
      });
      end({ outcome: report ? 'ok' : 'skipped' });
      return report ?? { skipped: 'another poll pass is running' };
    } catch (error) {
      end({ outcome: 'error' });
      this.logger.warn(`${name} failed: ${(error as Error).message}`);
      throw error;
    }
  }
}

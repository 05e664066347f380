import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { Response } from 'express';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { FailurePlan } from './failure-plan';

/** Injected /info failures: 5xx answers, or requests held open (the client times out). */
@Injectable()
export class FaultInjectionService implements OnModuleDestroy {
  readonly plan = new FailurePlan();
  private readonly held = new Map<Response, NodeJS.Timeout>();

  constructor(@Inject(APP_CONFIG) private readonly config: VenueSimConfig) {}

  /** Holds the request open; answers 504 after SIM_HANG_MS unless the client gives up first. */
  hold(res: Response): void {
    const timer = setTimeout(
      () => this.release(res, 504, 'timeout', 'The venue did not answer in time.'),
      this.config.SIM_HANG_MS,
    );
    this.held.set(res, timer);
    res.once('close', () => {
      clearTimeout(timer);
      this.held.delete(res);
    });
  }

  get heldCount(): number {
    return this.held.size;
  }

  /** Answers every held request (shutdown must not wait for them). */
  releaseAll(): void {
    for (const res of [...this.held.keys()])
      this.release(res, 503, 'service_unavailable', 'The venue is shutting down.');
  }

  onModuleDestroy(): void {
    this.releaseAll();
  }

  private release(res: Response, status: number, code: string, message: string): void {
    clearTimeout(this.held.get(res));
    this.held.delete(res);
    if (!res.headersSent && !res.destroyed) res.status(status).json({ code, message });
  }
}

import { StalePassError } from '../alerts/alert-writer.service';
import { LeaseLostError } from './poll-leader';

/**
 * A pass stopped by its fence (lease lost, or another pass committed first): it must not write anything, not even its
 * failure.
 */
export function isFenced(error: unknown): boolean {
  return error instanceof LeaseLostError || error instanceof StalePassError;
}

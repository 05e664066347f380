import type { WatchEntity } from '@paper/alerts-data';
import type { WatchView } from './watch.dto';

export function toWatchView(watch: WatchEntity): WatchView {
  return {
    id: watch.id,
    address: watch.address,
    role: watch.role,
    label: watch.label,
    rules: watch.rules,
    createdAt: watch.createdAt.toISOString(),
    updatedAt: watch.updatedAt.toISOString(),
  };
}

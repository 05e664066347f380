import { CreateAlertsSchema1763700000000 } from './1763700000000-create-alerts-schema';
import { CreateAlertsTables1763700200000 } from './1763700200000-create-alerts-tables';
import { AddAlertsPollingState1763700800000 } from './1763700800000-add-alerts-polling-state';
import { AddDeliveryRateLimited1763701000000 } from './1763701000000-add-delivery-rate-limited';
import { AddTelegramChats1763701200000 } from './1763701200000-add-telegram-chats';
import { AddChannelSecretRotation1763701400000 } from './1763701400000-add-channel-secret-rotation';
import { AddIdempotencyKeys1763701500000 } from './1763701500000-add-idempotency-keys';
import { AddChannelFailureTracking1763701600000 } from './1763701600000-add-channel-failure-tracking';
import { AddWatchMuteAndCooldown1763702300000 } from './1763702300000-add-watch-mute-and-cooldown';

/** Migrations of the `alerts` schema, oldest first. */
export const ALERTS_MIGRATIONS = [
  CreateAlertsSchema1763700000000,
  CreateAlertsTables1763700200000,
  AddAlertsPollingState1763700800000,
  AddDeliveryRateLimited1763701000000,
  AddTelegramChats1763701200000,
  AddChannelSecretRotation1763701400000,
  AddIdempotencyKeys1763701500000,
  AddChannelFailureTracking1763701600000,
  AddWatchMuteAndCooldown1763702300000,
];

/** Name of the newest migration: storage is ready once it is recorded in `alerts.migrations`. */
export const LATEST_ALERTS_MIGRATION = new AddWatchMuteAndCooldown1763702300000().name;

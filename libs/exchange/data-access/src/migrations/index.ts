import { CreateExchangeSchema1763700000000 } from './1763700000000-create-exchange-schema';
import { CreateExchangeTables1763700100000 } from './1763700100000-create-exchange-tables';
import { AddExchangeEngineColumns1763700400000 } from './1763700400000-add-exchange-engine-columns';
import { AddOwnerActionsAndFeeQueue1763700500000 } from './1763700500000-add-owner-actions-and-fee-queue';
import { AddIntentInbox1763700600000 } from './1763700600000-add-intent-inbox';
import { AddEventLog1763700700000 } from './1763700700000-add-event-log';
import { AddToolIdempotencyKeys1763700750000 } from './1763700750000-add-tool-idempotency-keys';

/** Migrations of the `exchange` schema, oldest first. */
export const EXCHANGE_MIGRATIONS = [
  CreateExchangeSchema1763700000000,
  CreateExchangeTables1763700100000,
  AddExchangeEngineColumns1763700400000,
  AddOwnerActionsAndFeeQueue1763700500000,
  AddIntentInbox1763700600000,
  AddEventLog1763700700000,
  AddToolIdempotencyKeys1763700750000,
];

import { AccountEntity } from './entities/account.entity';
import { ChainBalanceEntity } from './entities/chain-balance.entity';
import { DailyStatsEntity } from './entities/daily-stats.entity';
import { DepositEntity } from './entities/deposit.entity';
import { EquitySnapshotEntity } from './entities/equity-snapshot.entity';
import { IntentEntity } from './entities/intent.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { MarketStateEntity } from './entities/market-state.entity';
import { OwnerActionEntity } from './entities/owner-action.entity';
import { PayoutQueueEntryEntity } from './entities/payout-queue-entry.entity';
import { PositionEntity } from './entities/position.entity';
import { ProtocolStateEntity } from './entities/protocol-state.entity';
import { SessionKeyEntity } from './entities/session-key.entity';

/** Every TypeORM entity of the `exchange` schema. */
export const EXCHANGE_ENTITIES: Function[] = [
  AccountEntity,
  ChainBalanceEntity,
  DailyStatsEntity,
  DepositEntity,
  EquitySnapshotEntity,
  IntentEntity,
  LedgerEntryEntity,
  MarketStateEntity,
  OwnerActionEntity,
  PayoutQueueEntryEntity,
  PositionEntity,
  ProtocolStateEntity,
  SessionKeyEntity,
];

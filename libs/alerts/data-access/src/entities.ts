import { AlertEntity } from './entities/alert.entity';
import { AlertsAccountEntity } from './entities/alerts-account.entity';
import { ChannelEntity } from './entities/channel.entity';
import { DeliveryEntity } from './entities/delivery.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { PollStatusEntity } from './entities/poll-status.entity';
import { ProtocolRulesEntity } from './entities/protocol-rules.entity';
import { RuleStateEntity } from './entities/rule-state.entity';
import { TelegramChatEntity } from './entities/telegram-chat.entity';
import { TelegramLinkCodeEntity } from './entities/telegram-link-code.entity';
import { WatchEntity } from './entities/watch.entity';

/** Every TypeORM entity of the `alerts` schema. */
export const ALERTS_ENTITIES: Function[] = [
  AlertsAccountEntity,
  WatchEntity,
  ChannelEntity,
  ProtocolRulesEntity,
  RuleStateEntity,
  AlertEntity,
  DeliveryEntity,
  TelegramLinkCodeEntity,
  TelegramChatEntity,
  PollStatusEntity,
  IdempotencyKeyEntity,
];

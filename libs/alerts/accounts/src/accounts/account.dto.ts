import { ApiProperty } from '@nestjs/swagger';
import { ChannelView } from '../channels/channel.dto';
import { ProtocolRulesView } from '../protocol-rules/protocol-rules.dto';
import { WatchView } from '../watches/watch.dto';

export class AccountLimitsView {
  @ApiProperty({ description: 'Watches per account' }) watches!: number;
  @ApiProperty({ description: 'Channels per account (all kinds)' }) channels!: number;
}

export class AccountView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class CreatedAccountView {
  @ApiProperty({ type: AccountView }) account!: AccountView;
  @ApiProperty({
    description:
      'Bearer token of the account. Shown only in this response; it does not expire and stops working when the ' +
      'account is deleted.',
    example: 'alrt_3f0c…_Zx9…',
  })
  token!: string;
}

export class MeView {
  @ApiProperty({ type: AccountView }) account!: AccountView;
  @ApiProperty({ type: AccountLimitsView }) limits!: AccountLimitsView;
  @ApiProperty({ type: [WatchView] }) watches!: WatchView[];
  @ApiProperty({ type: [ChannelView] }) channels!: ChannelView[];
  @ApiProperty({ type: ProtocolRulesView }) protocolRules!: ProtocolRulesView;
}

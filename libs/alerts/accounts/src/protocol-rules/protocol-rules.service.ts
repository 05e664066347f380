import { Inject, Injectable } from '@nestjs/common';
import { ProtocolRulesEntity } from '@paper/alerts-data';
import { DEFAULT_PROTOCOL_RULES, type ProtocolRules } from '@paper/contracts';
import { DataSource } from 'typeorm';
import type { ProtocolRulesDto } from './protocol-rules.dto';

@Injectable()
export class ProtocolRulesService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async get(accountId: string): Promise<ProtocolRules> {
    const row = await this.dataSource.getRepository(ProtocolRulesEntity).findOneBy({ accountId });
    return row?.rules ?? (structuredClone(DEFAULT_PROTOCOL_RULES) as ProtocolRules);
  }

  async put(accountId: string, dto: ProtocolRulesDto): Promise<ProtocolRules> {
    const d = DEFAULT_PROTOCOL_RULES;
    const rules: ProtocolRules = {
      mintRate: {
        enabled: dto.mintRate?.enabled ?? d.mintRate.enabled,
        thresholdPerHour: dto.mintRate?.thresholdPerHour ?? d.mintRate.thresholdPerHour,
      },
      marketStatus: {
        enabled: dto.marketStatus?.enabled ?? d.marketStatus.enabled,
        markets: dto.marketStatus?.markets ?? [...d.marketStatus.markets],
      },
    };
    await this.dataSource.getRepository(ProtocolRulesEntity).upsert({ accountId, rules }, ['accountId']);
    return rules;
  }
}

import { Body, Controller, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ProtocolRules } from '@paper/contracts';
import { Authenticated, CurrentAccount } from '../auth/account-auth.guard';
import { ProtocolRulesDto, ProtocolRulesService, ProtocolRulesView } from '@paper/alerts-accounts';
import { ApiErrors } from '../errors/error-body.dto';

@ApiTags('protocol rules')
@Authenticated()
@Controller('api/protocol-rules')
export class ProtocolRulesController {
  constructor(private readonly rules: ProtocolRulesService) {}

  @Put()
  @ApiOperation({
    operationId: 'putProtocolRules',
    summary: 'Set the mint-rate threshold and market status alerts (replaces them; omitted fields take defaults)',
  })
  @ApiOkResponse({ type: ProtocolRulesView })
  @ApiErrors(400)
  put(@CurrentAccount() accountId: string, @Body() dto: ProtocolRulesDto): Promise<ProtocolRules> {
    return this.rules.put(accountId, dto);
  }
}

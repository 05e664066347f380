import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { signedOwnerActionSchema, toolSuccess } from '@paper/contracts';
import { ownerActionId, ownerActionMessageStrings, ownerActionTypedData } from '@paper/exchange-signing';
import { parseBody } from '../deposits/dev-funding.dto';
import { ownerActionFromRequest, prepareOwnerActionSchema } from './owner-action.dto';
import { OwnerActionSubmitter } from './owner-action.submitter';

/**
 * Paper-mode owner actions for development and tests (registered only with the other /dev endpoints):
 * build the typed data an owner signs with the wallet, and submit the signed action to the executor's
 * queue. The executor verifies that the wallet itself signed: a session key's signature is refused.
 */
@Controller('dev/owner-actions')
export class DevOwnerActionsController {
  constructor(private readonly submitter: OwnerActionSubmitter) {}

  @Post('typed-data')
  @HttpCode(200)
  prepare(@Body() body: unknown) {
    const action = ownerActionFromRequest(parseBody(prepareOwnerActionSchema, body));
    const typed = ownerActionTypedData(action);
    const message = ownerActionMessageStrings(action);
    const actionId = ownerActionId(action);
    return toolSuccess(
      `Sign this ${action.kind} with the wallet ${action.message.wallet} (eth_signTypedData_v4), then POST it with ` +
        `the signature to /dev/owner-actions.`,
      {
        actionId,
        typedData: { ...typed, message },
        submit: { kind: action.kind, message, actionId, signature: '0x<signature of typedData by the wallet>' },
      },
    );
  }

  @Post()
  @HttpCode(200)
  async submit(@Body() body: unknown) {
    const submitted = await this.submitter.submit(parseBody(signedOwnerActionSchema, body));
    if (submitted.status === 'pending') {
      return toolSuccess(
        `The action ${submitted.actionId} is queued and has not finished yet; it is still pending, not failed.`,
        {
          actionId: submitted.actionId,
          status: 'pending',
        },
      );
    }
    return toolSuccess(submitted.result.message, submitted.result);
  }
}

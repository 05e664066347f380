import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FaultInjectionService } from '../control/fault-injection.service';
import { parseInfoRequest } from './info-request.dto';
import { InfoError, InfoErrorCode } from './info.exception';
import { InfoService } from './info.service';

/** POST /info: the venue's market data (see info-request.dto.ts); POST /exchange is not simulated. */
@Controller()
export class InfoController {
  constructor(
    private readonly info: InfoService,
    private readonly faults: FaultInjectionService,
  ) {}

  @Post('info')
  handle(@Body() body: unknown, @Req() req: Request, @Res() res: Response): void {
    const failure = this.faults.plan.next();
    if (failure?.mode === 'timeout') return this.faults.hold(res);
    if (failure?.mode === 'error') {
      throw new InfoError(InfoErrorCode.InjectedFailure, failure.status, 'Injected failure (venue-sim control API).');
    }
    const answer = this.info.answer(parseInfoRequest(body), req.ip ?? 'unknown');
    res.status(200).json(answer);
  }

  /** Orders, cancels and transfers are not simulated: the paper exchange trades through its own signed intents. */
  @Post('exchange')
  exchange(): never {
    throw new InfoError(
      InfoErrorCode.NotSimulated,
      400,
      'venue-sim does not simulate the exchange endpoint (orders, cancels, transfers): it serves market data on ' +
        'POST /info only. Trade on the paper exchange through the tool API.',
    );
  }
}

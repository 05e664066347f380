/**
 * The baseline of tools-gateway.bench.ts: a NestJS app started exactly like every service (runApp: JSON
 * logs, request logs, metrics, the global error filter) with one endpoint that sends a fixed JSON body.
 * Run by the bench: PORT=<port> BENCH_BODY_FILE=<file> node -r ./tools/dev/register.cjs tools/bench/bare-nest.app.ts
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { Controller, type DynamicModule, Get, Module, Res } from '@nestjs/common';
import { InfraModule, baseEnvShape, env, runApp } from '@paper/nest-infra';
import type { Response } from 'express';
import { z } from 'zod';

const schema = z.object({ ...baseEnvShape, PORT: env.port(0), BENCH_BODY_FILE: z.string().min(1) });

@Controller()
class BareController {
  static body = '{}';

  @Get('bare')
  bare(@Res() res: Response): void {
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(BareController.body);
  }
}

@Module({})
class BareModule {
  static forRoot(config: z.infer<typeof schema>): DynamicModule {
    BareController.body = fs.readFileSync(config.BENCH_BODY_FILE, 'utf8');
    return { module: BareModule, imports: [InfraModule.forRoot({ config })], controllers: [BareController] };
  }
}

void runApp({ name: 'bench-bare', schema, module: (config) => BareModule.forRoot(config) });

/**
 * The baseline of tools-gateway.bench.ts: a NestJS app started exactly like every service (runApp: JSON
 * logs, request logs, metrics, the global error filter) whose fixed routes GET /bare/markets and
 * GET /bare/calc send fixed JSON bodies, the same bytes as the tool answers they are compared with.
 * Run by the bench: PORT=<port> BENCH_BODIES_FILE=<file of {"name": body}> node -r ./tools/dev/register.cjs tools/bench/bare-nest.app.ts
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { Controller, type DynamicModule, Get, Module, Res } from '@nestjs/common';
import { InfraModule, baseEnvShape, env, runApp } from '@paper/nest-infra';
import type { Response } from 'express';
import { z } from 'zod';

const schema = z.object({ ...baseEnvShape, PORT: env.port(0), BENCH_BODIES_FILE: z.string().min(1) });

@Controller()
class BareController {
  static bodies: Record<string, string> = {};

  @Get('bare/markets')
  markets(@Res() res: Response): void {
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(BareController.bodies['markets']);
  }

  @Get('bare/calc')
  calc(@Res() res: Response): void {
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(BareController.bodies['calc']);
  }
}

@Module({})
class BareModule {
  static forRoot(config: z.infer<typeof schema>): DynamicModule {
    BareController.bodies = JSON.parse(fs.readFileSync(config.BENCH_BODIES_FILE, 'utf8')) as Record<string, string>;
    return { module: BareModule, imports: [InfraModule.forRoot({ config })], controllers: [BareController] };
  }
}

void runApp({ name: 'bench-bare', schema, module: (config) => BareModule.forRoot(config) });

import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';

/** Every error of the alerts API. */
export class ErrorBodyDto {
  @ApiProperty({ description: 'Machine-readable error code', example: 'validation_failed' })
  code!: string;

  @ApiProperty({
    description: 'What went wrong and how to fix it',
    example: 'address must be a 0x-prefixed 40-hex-digit wallet address.',
  })
  message!: string;

  @ApiProperty({
    description:
      'On internal errors (500): the request id, also sent as `X-Request-Id` on every response; quote it when ' +
      'reporting a problem.',
    required: false,
    example: '5b0c5a8e-3f3c-4b6e-9a57-0f8d2f1c1d2e',
  })
  requestId?: string;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`validation_failed`, `unknown_key` naming the key, `invalid_json`, `target_not_allowed`)',
  401: 'Missing or invalid account token (`unauthorized`)',
  404: 'No such resource in this account (`not_found`)',
  405: 'Method not allowed (`method_not_allowed`)',
  409: 'Conflict (`conflict`) or per-account limit reached (`limit_reached`)',
  429: 'Too many requests (`rate_limited`); see `Retry-After`',
  502: 'The exchange API failed or timed out (`upstream_unavailable`)',
  503:
    'Storage schema not applied yet (`service_initializing`, `Retry-After: 300`), or storage briefly unreachable ' +
    '(`service_unavailable`, `Retry-After: 2`); on POST /api/telegram/link also `telegram_not_configured`',
};

/** Documents error responses with the `{ code, message }` body. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        type: ErrorBodyDto,
        ...(status === 429 || status === 503
          ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
          : {}),
      }),
    ),
  );
}

import type { PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { AlertsException } from '@paper/alerts-accounts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Resource ids are UUIDs; anything else cannot exist, so it is answered like an unknown id (404). */
export class IdParamPipe implements PipeTransform<string, string> {
  constructor(private readonly what: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw AlertsException.notFound(this.what);
    return value.toLowerCase();
  }
}

/** Documents the `{id}` path parameter. */
export const ApiIdParam = (what: string): MethodDecorator =>
  ApiParam({ name: 'id', description: `Id of the ${what}`, schema: { type: 'string', format: 'uuid' } });

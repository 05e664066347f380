import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { assertJsonObject, VALIDATOR_OPTIONS, validationException } from '@paper/alerts-accounts';

/** HTTP bodies and query strings must be JSON objects; then class-validator (unknown keys refused, named by path). */
class AlertsValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') assertJsonObject(value);
    return super.transform(value, metadata);
  }
}

/** The global pipe: DTO classes are the single source of validation and of the OpenAPI schemas. */
export function alertsValidationPipe(): ValidationPipe {
  return new AlertsValidationPipe({
    ...VALIDATOR_OPTIONS,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => validationException(errors),
  });
}

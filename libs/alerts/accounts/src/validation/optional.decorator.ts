import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but when sent it must be valid: unlike class-validator's IsOptional,
 * `null` is not a way to skip validation (it would store a null rule).
 */
export const Optional = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);

import { AlertsErrorCode } from '@paper/contracts';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import { MAX_JSON_DEPTH, tooDeepMessage } from '@paper/nest-infra';
import { AlertsException } from '../errors/alerts.exception';

/** The class-validator options of every alerts DTO (unknown keys refused). */
export const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

interface Problem {
  path: string;
  unknown: boolean;
  message: string;
}

function collect(errors: readonly ValidationError[], prefix: string, out: Problem[]): void {
  for (const error of errors) {
    const path = error.property ? (prefix ? `${prefix}.${error.property}` : error.property) : prefix;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      if (constraint === 'whitelistValidation') {
        out.push({ path, unknown: true, message: `Unknown key "${path}".` });
      } else if (constraint === 'unknownValue') {
        out.push({ path, unknown: false, message: `${path || 'The request body'} must be a JSON object.` });
      } else {
        const text =
          error.property && message.startsWith(`${error.property} `)
            ? `${path}${message.slice(error.property.length)}`
            : `${path}: ${message}`;
        out.push({ path, unknown: false, message: text });
      }
    }
    if (error.children?.length) collect(error.children, path, out);
  }
}

/** Turns class-validator errors into one `{ code, message }`: unknown keys first (naming each), else every problem. */
export function validationException(errors: readonly ValidationError[]): AlertsException {
  const problems: Problem[] = [];
  collect(errors, '', problems);
  const unknown = problems.filter((p) => p.unknown);
  if (unknown.length > 0) {
    return new AlertsException(AlertsErrorCode.UnknownKey, unknown.map((p) => p.message).join(' '));
  }
  const message = problems.map((p) => p.message).join('; ') || 'The request is not valid.';
  return new AlertsException(AlertsErrorCode.ValidationFailed, message.endsWith('.') ? message : `${message}.`);
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Keys that never reach a DTO instance (the object model drops them), found in the raw JSON: walked
 * depth-first without recursion, and input nested deeper than MAX_JSON_DEPTH is refused (class-transformer
 * and class-validator recurse over whatever they are given).
 */
function reservedKeyPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length > 0) {
    const [current, prefix, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw new AlertsException(AlertsErrorCode.ValidationFailed, tooDeepMessage());
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i]!;
      const path = prefix ? `${prefix}.${key}` : key;
      if (RESERVED_KEYS.has(key)) return path;
      stack.push([(current as Record<string, unknown>)[key], path, depth + 1]);
    }
  }
  return undefined;
}

/** Refuses anything but a JSON object (undefined passes: no body), and keys that never reach a DTO instance. */
export function assertJsonObject(value: unknown): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AlertsException(AlertsErrorCode.ValidationFailed, 'The request body must be a JSON object.');
  }
  const reserved = reservedKeyPath(value);
  if (reserved) throw new AlertsException(AlertsErrorCode.UnknownKey, `Unknown key "${reserved}".`);
}

/** Validates a plain object against a DTO class outside HTTP (MCP tool arguments) with the same rules. */
export async function validateDto<T extends object>(cls: new () => T, plain: unknown): Promise<T> {
  assertJsonObject(plain ?? {});
  const instance = plainToInstance(cls, plain);
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length > 0) throw validationException(errors);
  return instance;
}

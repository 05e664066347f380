import { TOOL_CATALOG, toolJsonSchema } from '@paper/contracts';
import Ajv2020 from 'ajv/dist/2020';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map(TOOL_CATALOG.map((t) => [t.name, ajv.compile(toolJsonSchema(t, 'output'))]));

/** The JSON Schema (2020-12) validator of a tool's result data, compiled from the catalog. */
export function outputValidator(name: string) {
  const validate = validators.get(name);
  if (!validate) throw new Error(`no tool named ${name}`);
  return validate;
}

/** Fails with the validator's errors unless `data` matches the tool's output schema. */
export function expectValidData(name: string, data: unknown): void {
  const validate = outputValidator(name);
  if (!validate(data))
    throw new Error(`${name} data does not match its output schema: ${ajv.errorsText(validate.errors)}`);
}

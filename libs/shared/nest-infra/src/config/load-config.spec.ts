import { z } from 'zod';
import { baseEnvShape, env } from './env-schema';
import { ConfigValidationError, loadConfig } from './load-config';

const schema = z.object({
  ...baseEnvShape,
  PORT: env.port(3000),
  API_SECRET: z.string().min(8),
  FLAG: env.bool(false),
});

describe('loadConfig', () => {
  it('applies defaults and coerces', () => {
    const config = loadConfig('demo', schema, { API_SECRET: 'abcdefgh', FLAG: 'true', PORT: '81' });
    expect(config).toMatchObject({ PORT: 81, FLAG: true, NODE_ENV: 'development', LOG_LEVEL: 'info' });
  });

  it('names every bad or missing variable', () => {
    try {
      loadConfig('demo', schema, { PORT: '70000' });
      throw new Error('expected a validation error');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      const problems = (error as ConfigValidationError).problems.join('\n');
      expect(problems).toContain('PORT: invalid value "70000"');
      expect(problems).toContain('API_SECRET: missing');
    }
  });

  it('never prints secret values', () => {
    expect(() => loadConfig('demo', schema, { API_SECRET: 'short' })).toThrow(/API_SECRET: invalid value "\*\*\*"/);
  });
});

import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { TOOL_CATALOG } from '@paper/contracts';
import { buildOpenApiDocument } from './openapi.builder';

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is inspected field by field
  components: Record<string, any>;
};

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument('https://paper.example/') as unknown as Doc;

  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
  });

  it('has component schemas that are valid JSON Schema 2020-12 (strict)', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const text = JSON.stringify(doc.components['schemas']).replace(
      /"#\/components\/schemas\/([A-Za-z]+)"/g,
      '"https://schemas.test/$1"',
    );
    for (const [name, schema] of Object.entries(JSON.parse(text) as Record<string, object>)) {
      ajv.addSchema({ ...schema, $id: `https://schemas.test/${name}` });
    }
    for (const name of Object.keys(doc.components['schemas'])) {
      expect(ajv.getSchema(`https://schemas.test/${name}`)).toBeDefined();
    }
    const result = ajv.getSchema('https://schemas.test/GetMarketsResult')!;
    expect(result({ ok: true, summary: 's', data: { tradingEnabled: true, markets: [] } })).toBe(true);
    expect(result({ ok: true, summary: 's', data: { markets: [] } })).toBe(false);
  });

  it('has operation ids <name> for the public family and me_<name> for the authenticated one', () => {
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const tool of TOOL_CATALOG) {
      expect(ids).toContain(`me_${tool.name}`);
      if (tool.family === 'public') expect(ids).toContain(tool.name);
      else expect(ids).not.toContain(tool.name);
    }
  });

  it('secures /me operations with the OAuth flow and the right scopes', () => {
    const flows = doc.components['securitySchemes'].oauth2.flows.authorizationCode;
    expect(flows).toMatchObject({
      authorizationUrl: 'https://paper.example/authorize',
      tokenUrl: 'https://paper.example/token',
      refreshUrl: 'https://paper.example/token',
    });
    expect(doc.paths['/api/v1/me/tools/open_position']!['post']!.security).toEqual([
      { oauth2: ['trade:read', 'trade:write'] },
    ]);
    expect(doc.paths['/api/v1/me/tools/get_account']!['post']!.security).toEqual([{ oauth2: ['trade:read'] }]);
    expect(doc.paths['/api/v1/tools/get_markets']!['post']!.security).toEqual([]);
  });

  it('has input, data and result schemas for every tool', () => {
    const schemas = doc.components['schemas'];
    expect(schemas.GetPriceChartInput.properties.count).toMatchObject({ minimum: 10, maximum: 500, default: 96 });
    expect(schemas.GetPriceChartInput.additionalProperties).toBe(false);
    for (const name of [
      'GetMarketsData',
      'OpenPositionData',
      'ClosePositionsResult',
      'CalculatePositionInput',
      'ToolFailure',
      'MeResult',
    ]) {
      expect(schemas[name]).toBeDefined();
    }
    expect(Object.keys(schemas).filter((k) => k.endsWith('Input'))).toHaveLength(TOOL_CATALOG.length);
  });
});

import { TOOL_CATALOG, toolListingSchema } from '@paper/contracts';
import { toolListingBody } from './tool-listing';

describe('GET /api/v1/tools body', () => {
  it('is exactly what the ToolListing schema (and so the OpenAPI document) describes, one entry per catalog tool', () => {
    const parsed = toolListingSchema.strict().parse(JSON.parse(toolListingBody()));
    expect(parsed.data.tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    for (const tool of parsed.data.tools) {
      expect(toolListingSchema.shape.data.shape.tools.element.strict().safeParse(tool).success).toBe(true);
      expect(tool.endpoints.me.path).toBe(`/api/v1/me/tools/${tool.name}`);
    }
  });
});

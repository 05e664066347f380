import { TOOL_CATALOG, TOOL_VIEWS, toolViewUri } from '@paper/contracts';
import { storedJson } from '@paper/nest-infra';
import { buildUiResources } from './ui-resources';

describe('UI resources (MCP Apps)', () => {
  const ui = buildUiResources();

  it('lists one ui://paper-perps resource per view of the catalog, with empty CSP allow-lists', () => {
    expect(ui.listing.resources.map((r) => r.uri)).toEqual(TOOL_VIEWS.map(toolViewUri));
    expect(
      TOOL_CATALOG.filter((t) => t.view)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['get_account', 'get_liquidation_map', 'get_price_chart', 'preview_trade']);
    for (const resource of ui.listing.resources) {
      expect(resource.mimeType).toBe('text/html;profile=mcp-app');
      expect(resource._meta).toEqual({
        ui: {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
          prefersBorder: true,
        },
      });
    }
    expect(JSON.parse(storedJson(ui.listing)!.json.toString())).toEqual(ui.listing);
  });

  it('serves each view as one self-contained HTML document naming the view it draws', () => {
    for (const view of TOOL_VIEWS) {
      const read = ui.read(toolViewUri(view))!;
      const content = read.contents[0] as { uri: string; mimeType: string; text: string };
      expect(content).toMatchObject({ uri: toolViewUri(view), mimeType: 'text/html;profile=mcp-app' });
      expect(content.text).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
      expect(content.text).toContain(`<body data-view="${view}">`);
      expect(content.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import/i);
      expect(content.text).toMatch(/^[\x09\x0a\x0d\x20-\x7e]*$/); // ASCII: other characters are escaped
      // One inline script, never closed early by its own text.
      expect(content.text.match(/<script>/g)).toHaveLength(1);
      expect(content.text.match(/<\/script>/g)).toHaveLength(1);
      expect(storedJson(read)).toBeDefined();
    }
    expect(ui.read('ui://paper-perps/unknown')).toBeUndefined();
  });
});

import fs from 'node:fs';
import { TOOL_CATALOG } from '@paper/contracts';
import { serverCard } from '../../apps/mcp-server/src/discovery/server-card';
import { buildMcpToolListing } from '../../apps/mcp-server/src/mcp/mcp-tool-listing';
import { EXAMPLE_BASE_URL, SERVER_JSON_PATH, serverJsonText } from './server-json';

describe('server.json and the server card', () => {
  it('server.json is generated from the current catalog and server identity', () => {
    expect(fs.readFileSync(SERVER_JSON_PATH, 'utf8')).toBe(serverJsonText());
  });

  it('server.json keeps to the registry limits: a reverse-DNS name with one slash, a description of at most 100 characters', () => {
    const entry = JSON.parse(serverJsonText()) as { name: string; description: string };
    expect(entry.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(entry.description.length).toBeLessThanOrEqual(100);
  });

  it('the server card names the endpoint, both revisions, optional OAuth, and lists the tools as tools/list does', () => {
    const card = serverCard(EXAMPLE_BASE_URL);
    expect(card).toMatchObject({
      name: 'com.example.perps/paper-perps',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://perps.example.com/mcp',
          supportedProtocolVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
          authentication: { required: false, schemes: ['oauth2'] },
        },
      ],
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    });
    expect(card.tools).toEqual(buildMcpToolListing().tools);
    expect(card.tools.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
  });
});

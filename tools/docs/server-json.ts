/**
 * The registry's `server.json` at the repository root, generated from the catalog and the MCP server's
 * identity (apps/mcp-server/src/discovery/server-card.ts) for the documented example base URL.
 * `node -r ./tools/dev/register.cjs tools/docs/server-json.ts --write` rewrites it; server-json.spec.ts
 * fails when it is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { registryServer } from '../../apps/mcp-server/src/discovery/server-card';

export const SERVER_JSON_PATH = path.resolve(__dirname, '..', '..', 'server.json');
/** The example base URL the docs use. */
export const EXAMPLE_BASE_URL = 'https://perps.example.com';

export function serverJsonText(): string {
  return `${JSON.stringify(registryServer(EXAMPLE_BASE_URL), null, 2)}\n`;
}

if (require.main === module && process.argv.includes('--write')) {
  fs.writeFileSync(SERVER_JSON_PATH, serverJsonText());
  console.log(`wrote ${path.relative(process.cwd(), SERVER_JSON_PATH)}`);
}

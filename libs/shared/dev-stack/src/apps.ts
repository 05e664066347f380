/** The eight deployables, their default local ports, and which run behind which base URL. */
export interface StackApp {
  name: string;
  defaultPort: number;
}

export const STACK_APPS: readonly StackApp[] = Object.freeze([
  { name: 'venue-sim', defaultPort: 3008 },
  { name: 'oauth-server', defaultPort: 3003 },
  { name: 'trading-executor', defaultPort: 3004 },
  { name: 'tools-gateway', defaultPort: 3001 },
  { name: 'mcp-server', defaultPort: 3002 },
  { name: 'alerts-api', defaultPort: 3005 },
  { name: 'alerts-poller', defaultPort: 3006 },
  { name: 'alerts-dispatcher', defaultPort: 3007 },
]);

export const DEFAULT_BASE_PORT = 8080;
export const DEFAULT_ALERTS_PORT = 8090;

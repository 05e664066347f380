/**
 * V8 limits every service process runs with, locally and in the images (docker/Dockerfile sets the same
 * NODE_OPTIONS; a lint test keeps the two equal). A 2 MB semi-space keeps the young generation, most of
 * an idle service's heap headroom, small; the old-space cap bounds a service under load well below its
 * container limit, so a leak ends in a restart instead of the node being starved.
 */
export const SERVICE_NODE_OPTIONS = ['--max-old-space-size=176', '--max-semi-space-size=2'] as const;

/**
 * Services that run with other limits than the defaults (their Deployment sets the same NODE_OPTIONS; a
 * manifest test keeps them equal). trading-executor allocates per intent at thousands of
 * intents a second: a 4 MB semi-space cuts its scavenges enough to lower its CPU per intent by about a
 * fifth (docs/performance.md) for about 4 MB more at idle (8 MB would cost 11 MB, past the idle budget).
 */
export const APP_NODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  'trading-executor': ['--max-semi-space-size=4'],
};

/** The V8 flags of one service's process: the defaults, each replaced by the service's own value of that flag. */
export function nodeOptionsOf(app: string): string[] {
  const own = APP_NODE_OPTIONS[app] ?? [];
  const flag = (option: string) => option.split('=')[0];
  return [...SERVICE_NODE_OPTIONS.filter((o) => !own.some((x) => flag(x) === flag(o))), ...own];
}

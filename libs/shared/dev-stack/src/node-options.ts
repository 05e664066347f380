/**
 * V8 limits every service process runs with, locally and in the images (docker/Dockerfile sets the same
 * NODE_OPTIONS; a lint test keeps the two equal). A 2 MB semi-space keeps the young generation, most of
 * an idle service's heap headroom, small; the old-space cap bounds a service under load well below its
 * container limit, so a leak ends in a restart instead of the node being starved.
 */
export const SERVICE_NODE_OPTIONS = ['--max-old-space-size=176', '--max-semi-space-size=2'] as const;

import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The process-wide Prometheus registry of an app, with default process metrics and HTTP timings. */
export const metricsRegistry = new Registry();
let initialised = false;

export function initMetrics(app: string): Registry {
  if (!initialised) {
    metricsRegistry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: metricsRegistry });
    initialised = true;
  }
  return metricsRegistry;
}

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.on('finish', () => {
      const route = (req as { route?: { path?: string } }).route?.path ?? 'unmatched';
      end({ method: req.method, route: String(route), status: String(res.statusCode) });
    });
    next();
  };
}

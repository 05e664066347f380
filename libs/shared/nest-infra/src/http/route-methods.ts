import type { NestExpressApplication } from '@nestjs/platform-express';

/** A layer of the Express router, as far as finding the methods of a path needs it. */
interface RouterLayer {
  route?: { _methods(): string[] };
  match(path: string): unknown;
}

/** The methods the app's routes serve on a path (`GET, HEAD, POST`); empty when no route has the path. */
export type RouteMethods = (path: string) => string[];

/**
 * Reads the methods of a path from the app's Express router, so a request with another method can be
 * answered 405 with `Allow` instead of 404. Only asked once no route matched (never on the hot path).
 */
export function routeMethodsOf(app: NestExpressApplication): RouteMethods {
  const express = app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouterLayer[] } };
  return (path) => {
    const methods = new Set<string>();
    for (const layer of express.router.stack) {
      if (layer.route && layer.match(path)) for (const method of layer.route._methods()) methods.add(method);
    }
    return [...methods];
  };
}

import fs from 'node:fs';
import path from 'node:path';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';

/** Files of swagger-ui-dist the reference page loads, served from this app (no CDN). */
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE =
  `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Paper Perps tool API reference</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body{margin:0;font-family:system-ui,sans-serif}` +
  `header{padding:16px 24px;background:#0f172a;color:#e2e8f0}header a{color:#93c5fd}</style>
</head>
<body>
  <header><strong>Paper Perps tool API</strong> &middot; OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a> ` +
  `&middot; tools: <a href="/api/v1/tools">/api/v1/tools</a></header>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false,
      defaultModelsExpandDepth: 0, docExpansion: 'list' });
  </script>
</body>
</html>`;

/** The browsable API reference at /docs, rendering /openapi.json with a locally served Swagger UI. */
@Controller('docs')
export class DocsController {
  private readonly assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

  @Get()
  page(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(PAGE);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    const type = ASSETS[file];
    if (!type) throw new NotFoundException(`No asset ${file}.`);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    fs.createReadStream(path.join(this.assetDir, file)).pipe(res);
  }
}

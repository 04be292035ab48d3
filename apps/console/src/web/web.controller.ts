import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NoRateLimit, Public } from '@kyc/platform';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

import { ConsoleConfig } from '../config/console.config';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * The page: scripts may come from the console only; Mantine sets styles inline; images of documents
 * and faces come through the services' signed links (https) or as data/blob URLs.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http://127.0.0.1:*",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
}

/**
 * Serves the single-page application built by Vite (tools/build.mjs): hashed assets cached for a
 * year, index.html for every other page path (the client router's), never cached.
 */
@ApiExcludeController()
@Public()
@NoRateLimit()
@Controller()
export class WebController {
  private readonly assets = new Map<string, Asset>();
  private readonly index?: Buffer;

  constructor(config: ConsoleConfig) {
    const dir = config.CONSOLE_WEB_DIR ?? path.resolve(__dirname, '../../web');
    const indexFile = path.join(dir, 'index.html');
    if (existsSync(indexFile)) this.index = readFileSync(indexFile);
    const assetsDir = path.join(dir, 'assets');
    if (existsSync(assetsDir))
      for (const name of readdirSync(assetsDir))
        this.assets.set(name, {
          body: readFileSync(path.join(assetsDir, name)),
          type: TYPES[path.extname(name)] ?? 'application/octet-stream',
        });
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply) {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundException(`No asset ${name}`);
    return reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }

  @Get([
    '/',
    'checks',
    'checks/*',
    'processes',
    'processes/*',
    'review',
    'admin',
    'admin/*',
    'rules',
    'rules/*',
    'inbox',
    'inbox/*',
    'sign-in',
  ])
  page(@Res() reply: FastifyReply) {
    if (!this.index)
      return reply
        .status(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .send('The console page is not built: run `node tools/build.mjs`.');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(this.index);
  }

  /** The pages of the customers and segments areas. */
  @Get(['contacts', 'contacts/*', 'customers/*', 'segments', 'segments/*'])
  customersPage(@Res() reply: FastifyReply) {
    return this.page(reply);
  }
}

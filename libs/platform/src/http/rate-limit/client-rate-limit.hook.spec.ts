import Fastify, { FastifyInstance } from 'fastify';

import { PlatformConfig } from '../../config/platform.config';
import { toErrorEnvelope } from '../../errors/error-envelope';
import { registerClientRateLimit } from './client-rate-limit.hook';
import { RateLimiterService } from './rate-limiter.service';

/** A Fastify server with the hook and one route per kind of route config, as the platform's decorators set them. */
async function server(): Promise<{ app: FastifyInstance; bodiesRead: () => number }> {
  const config = Object.assign(new PlatformConfig(), {
    RATE_LIMIT_CLIENT_PER_SECOND: 0.01,
    RATE_LIMIT_CLIENT_BURST: 2,
  });
  const app = Fastify();
  let bodies = 0;
  app.addHook('preParsing', (_req, _reply, payload, done) => {
    bodies++;
    done(null, payload);
  });
  registerClientRateLimit(app, new RateLimiterService(config, {} as never));
  app.setErrorHandler((err, _req, reply) => {
    const body = toErrorEnvelope(err, 'id');
    void reply.status(body.code).send(body);
  });
  app.post('/public', { config: { kycPublic: true } }, () => ({ ok: true }));
  app.get('/probe', { config: { kycPublic: true, kycNoRateLimit: true } }, () => ({ ok: true }));
  app.get('/keyed', () => ({ ok: true }));
  app.get('/keyed-page', { config: { kycClientRateLimit: true } }, () => ({ ok: true }));
  await app.ready();
  return { app, bodiesRead: () => bodies };
}

describe('registerClientRateLimit', () => {
  it('refuses a client address past its bucket with 429 in the envelope before reading the body', async () => {
    const { app, bodiesRead } = await server();
    const post = (ip: string) =>
      app.inject({ method: 'POST', url: '/public', remoteAddress: ip, payload: { file: 'x'.repeat(1000) } });
    expect((await post('203.0.113.1')).statusCode).toBe(200);
    expect((await post('203.0.113.1')).statusCode).toBe(200);
    const refused = await post('203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, error_code: 'too_many_requests' });
    expect(refused.json().message).toContain('for this client address');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers.connection).toBe('close');
    expect(bodiesRead()).toBe(2);
    // Another address has its own bucket.
    expect((await post('203.0.113.2')).statusCode).toBe(200);
    await app.close();
  });

  it('answers a browser asking for a page with a page in its language, not JSON', async () => {
    const { app } = await server();
    const get = (lang: string) =>
      app.inject({
        method: 'GET',
        url: '/keyed-page',
        remoteAddress: '203.0.113.7',
        headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': lang },
      });
    await get('pt-BR');
    await get('pt-BR');
    const refused = await get('pt-BR,en;q=0.8');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain('<html lang="pt">');
    expect(refused.body).toMatch(/Tente novamente em \d+ segundos/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get('fr')).body).toContain('Intenta de nuevo en');
    await app.close();
  });

  it('leaves @NoRateLimit routes and keyed routes alone, and limits keyed routes marked by client address', async () => {
    const { app } = await server();
    const get = (url: string) => app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' });
    for (let n = 0; n < 5; n++) {
      expect((await get('/probe')).statusCode).toBe(200);
      expect((await get('/keyed')).statusCode).toBe(200);
    }
    expect([(await get('/keyed-page')).statusCode, (await get('/keyed-page')).statusCode]).toEqual([200, 200]);
    expect((await get('/keyed-page')).statusCode).toBe(429);
    await app.close();
  });
});

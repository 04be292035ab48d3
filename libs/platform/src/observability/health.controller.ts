import { Controller, Get, Header, Injectable, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Admin } from 'kafkajs';
import { DataSource } from 'typeorm';

import { AccessCacheService } from '../auth/access-cache.service';
import { Public } from '../auth/auth.decorators';
import { PlatformConfig } from '../config/platform.config';
import { NotFoundException } from '../errors/app.exception';
import { envelope } from '../errors/error-envelope';
import { NoRateLimit } from '../http/rate-limit/rate-limit.decorators';
import { metricsRegistry } from './metrics';

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/** Kafka reachability, probed at most every 2 s so /health stays cheap under frequent probes. */
@Injectable()
export class KafkaHealthIndicator {
  private admin?: Admin;
  private last = { at: 0, up: false };

  attach(admin: Admin) {
    this.admin = admin;
  }

  async up(): Promise<boolean> {
    if (!this.admin) return false;
    if (Date.now() - this.last.at < 2_000) return this.last.up;
    const up = await withTimeout(this.admin.describeCluster(), 1_500).then(
      (c) => c.brokers.length > 0,
      () => false,
    );
    this.last = { at: Date.now(), up };
    return up;
  }
}

@ApiExcludeController()
@Public()
@NoRateLimit()
@Controller()
export class HealthController {
  constructor(
    private readonly config: PlatformConfig,
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaHealthIndicator,
    private readonly access: AccessCacheService,
  ) {}

  /**
   * Liveness: the process is up and its event loop turns (this answer is the proof). No dependency is
   * checked, so an outage of PostgreSQL or Kafka never gets a pod restarted.
   */
  @Get('livez')
  livez(@Res() reply: FastifyReply) {
    return reply.status(200).send({ status: 'ok', service: this.config.SERVICE_NAME });
  }

  /** Readiness: 200 when the database, Kafka and the access cache are all usable; 503 in the envelope otherwise. */
  @Get('readyz')
  readyz(@Res() reply: FastifyReply) {
    return this.readiness(reply);
  }

  /** The former single health check, kept for compatibility: an alias of /readyz. */
  @Get('health')
  health(@Res() reply: FastifyReply) {
    return this.readiness(reply);
  }

  private async readiness(reply: FastifyReply) {
    const [database, kafka] = await Promise.all([
      withTimeout(this.dataSource.query('SELECT 1'), 1_500).then(
        () => 'up',
        () => 'down',
      ),
      this.kafka.up().then((up) => (up ? 'up' : 'down')),
    ]);
    const checks = { database, kafka, access_cache: this.access.ready ? 'ready' : 'starting' };
    const healthy = database === 'up' && kafka === 'up' && this.access.ready;
    const body = healthy
      ? { status: 'ok', service: this.config.SERVICE_NAME, checks }
      : { ...envelope(503, 'Service not ready', 'service_unavailable'), checks };
    return reply.status(healthy ? 200 : 503).send(body);
  }

  /** On the service port unless METRICS_PORT moves it to a listener of its own (startMetricsServer). */
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4')
  metrics(): Promise<string> {
    if (this.config.METRICS_PORT !== undefined) throw new NotFoundException('Route GET /metrics');
    return metricsRegistry.metrics();
  }
}

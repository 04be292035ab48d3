import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Admin, Kafka } from 'kafkajs';
import { MigrationInterface } from 'typeorm';

import { AccessCacheService } from './auth/access-cache.service';
import { ApiKeyVerifier } from './auth/api-key.tokens';
import { AuthGuard } from './auth/auth.guard';
import { WhoAmIController } from './auth/whoami.controller';
import { PlatformConfig } from './config/platform.config';
import { EntityClass, serviceDataSourceOptions } from './database/data-source';
import { sendStatementsUnnamed } from './database/pooled-client';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { InboxService } from './events/inbox.service';
import { createKafka } from './events/kafka';
import { OutboxService } from './events/outbox.service';
import { OutboxRelayService } from './events/outbox-relay.service';
import { IdempotencyGuard, IdempotencyService } from './http/idempotency';
import { OutboundHttpClient } from './http/outbound-http';
import { RateLimitGuard } from './http/rate-limit/rate-limit.guard';
import { RateLimiterService } from './http/rate-limit/rate-limiter.service';
import { InputInspectionGuard } from './http/request-hardening';
import { JobQueueService } from './jobs/job-queue.service';
import { HealthController, KafkaHealthIndicator } from './observability/health.controller';
import { MetricsSampler } from './observability/metrics-sampler';
import { OneTimeCodeService } from './one-time-codes/one-time-code.service';
import { processRole } from './process-role';
import { Clock, SystemClock } from './time/clock';

export const KAFKA = Symbol('kafka');

export interface PlatformModuleOptions {
  config: PlatformConfig;
  entities: EntityClass[];
  migrations: (new () => MigrationInterface)[];
  /** Time source of job queues and schedulers (tests pass a ManualClock). */
  clock?: Clock;
}

/** Connects the producer, fills the access cache and starts the outbox relay before the app listens. */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('platform');
  private admin?: Admin;

  constructor(
    private readonly config: PlatformConfig,
    @Inject(KAFKA) private readonly kafka: Kafka,
    private readonly access: AccessCacheService,
    private readonly relay: OutboxRelayService,
    private readonly kafkaHealth: KafkaHealthIndicator,
    private readonly jobs: JobQueueService,
    private readonly rateLimiter: RateLimiterService,
    private readonly sampler: MetricsSampler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // An operator command (main.js admin …) writes through the services and exits: no background work.
    if (!processRole.background) return;
    const started = Date.now();
    // The outbox relay and the process's Kafka producer run on a thread of their own (OutboxRelayService).
    const relay = {
      service: this.config.SERVICE_NAME,
      logLevel: this.config.LOG_LEVEL,
      databaseUrl: this.config.DATABASE_URL,
      schema: this.config.DB_SCHEMA,
      kafka: this.config.kafkaConnection,
      pollMs: this.config.OUTBOX_POLL_MS,
      transactionPooler: this.config.DB_TRANSACTION_POOLER,
    };
    await Promise.all([
      this.relay.start(relay),
      this.access.start(this.kafka, this.config.SERVICE_NAME, {
        maxWaitTimeInMs: this.config.KAFKA_CONSUMER_MAX_WAIT_MS,
      }),
    ]);
    this.admin = this.kafka.admin();
    await this.admin.connect();
    this.kafkaHealth.attach(this.admin);
    this.jobs.start(this.config.JOBS_POLL_MS, this.config.JOBS_RETENTION_HOURS);
    this.rateLimiter.start();
    this.sampler.start(
      this.config.METRICS_SAMPLE_MS,
      this.admin,
      this.config.KAFKA_CONSUMER_GROUP ?? this.config.SERVICE_NAME,
    );
    this.logger.log({ msg: 'platform ready', ms: Date.now() - started });
  }

  async onApplicationShutdown(): Promise<void> {
    this.sampler.onApplicationShutdown();
    await this.jobs.onApplicationShutdown();
    await this.relay.onApplicationShutdown();
    await this.admin?.disconnect().catch(() => undefined);
  }
}

/**
 * What every service gets: its schema's DataSource, auth (global guard), the error envelope
 * (global filter), idempotency (global guard + onSend hook), outbox + relay, inbox, access cache,
 * the outbound HTTP client (SSRF policy), per-tenant, per-key and per-client-address rate limits,
 * one-time codes, /health and /metrics.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const { config } = options;
    if (config.DB_TRANSACTION_POOLER) sendStatementsUnnamed();
    return {
      module: PlatformModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot(
          serviceDataSourceOptions({
            url: config.DATABASE_URL,
            schema: config.DB_SCHEMA,
            entities: options.entities,
            migrations: options.migrations,
            poolSize: config.DB_POOL_SIZE,
            transactionPooler: config.DB_TRANSACTION_POOLER,
          }),
        ),
      ],
      controllers: [HealthController, WhoAmIController],
      providers: [
        { provide: PlatformConfig, useValue: config },
        { provide: config.constructor, useValue: config },
        { provide: KAFKA, useFactory: () => createKafka(config.kafkaConnection) },
        { provide: ApiKeyVerifier, useFactory: () => new ApiKeyVerifier(config.API_KEY_PUBLIC_KEY) },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        JobQueueService,
        AccessCacheService,
        OutboxService,
        OutboxRelayService,
        InboxService,
        KafkaHealthIndicator,
        MetricsSampler,
        PlatformLifecycle,
        IdempotencyService,
        OutboundHttpClient,
        RateLimiterService,
        OneTimeCodeService,
        // Also outside the guard chain: bootstrap checks keys before bodies are read (request-hardening.ts).
        AuthGuard,
        // Global guards run in this order: the caller's rate limits are taken, then the Idempotency-Key is
        // claimed for the authenticated tenant.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        // Permission before input: the input is inspected (NUL, depth, sizes) once the caller may call the route.
        { provide: APP_GUARD, useClass: InputInspectionGuard },
        { provide: APP_GUARD, useClass: IdempotencyGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [
        PlatformConfig,
        config.constructor,
        KAFKA,
        ApiKeyVerifier,
        Clock,
        JobQueueService,
        AccessCacheService,
        OutboxService,
        OutboxRelayService,
        InboxService,
        OutboundHttpClient,
        RateLimiterService,
        OneTimeCodeService,
        AuthGuard,
      ],
    };
  }
}

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';

import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { MigrationInterface } from 'typeorm';

import type { AdminCommands } from './admin/admin-command';
import { runAdminCommand } from './admin/run-admin';
import { API_KEY_HEADERS, AuthGuard } from './auth/auth.guard';
import { AuthenticatedRequest, CALLER } from './auth/caller';
import { PlatformConfig } from './config/platform.config';
import { EntityClass, migrateSchema, revertLastMigration } from './database/data-source';
import { kafkaClientOptions } from './events/kafka';
import { IdempotencyService } from './http/idempotency';
import { registerMethodNotAllowed } from './http/method-not-allowed';
import { registerClientRateLimit } from './http/rate-limit/client-rate-limit.hook';
import { RateLimiterService } from './http/rate-limit/rate-limiter.service';
import { clientErrorHandler, frameworkErrors, registerRequestHardening } from './http/request-hardening';
import { PATH_PARAM_MAX_LENGTH } from './http/request-limits';
import { trustedProxies } from './http/trusted-proxies';
import { foregroundLoad } from './observability/foreground-load';
import { JsonLogger, rootLogger } from './observability/logger';
import { httpRequestDuration, startMetricsServer } from './observability/metrics';
import { ambientContext } from './observability/request-context.storage';
import { currentTraceId, flushTraces } from './observability/trace-context';
import { createOpenApiDocument } from './openapi/openapi-document';
import { Clock } from './time/clock';
import { createValidationPipe } from './validation/validation.pipe';

/** Probes and scrapes: answered many times a minute, never access-logged. */
const PROBE_ROUTES = new Set(['/livez', '/readyz', '/health', '/metrics']);

/** The /metrics listener of each app started with METRICS_PORT. */
const metricsServers = new WeakMap<object, Server>();

/** What a test (or an embedding program) may substitute when building a service. */
export interface ServiceOptions {
  clock?: Clock;
}

export interface ServiceDefinition {
  config: PlatformConfig;
  module: DynamicModule;
  entities: EntityClass[];
  migrations: (new () => MigrationInterface)[];
  /** True when the app has Kafka event handlers (group: KAFKA_CONSUMER_GROUP, default the service name). */
  consumesEvents?: boolean;
  title: string;
  description?: string;
  /** Keep each request's raw body on `req.rawBody` (for webhooks signed over their exact bytes). */
  rawBody?: boolean;
  /** Operator commands of `main.js admin <name>` (runAdminCommand). */
  adminCommands?: AdminCommands;
}

/** Builds the HTTP app (Fastify, form + JSON bodies, validation, request ids, metrics, /docs). */
export async function createServiceApp(def: ServiceDefinition): Promise<NestFastifyApplication> {
  const { config } = def;
  const adapter = new FastifyAdapter({
    genReqId: (req: { headers: Record<string, unknown> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // The ceiling of every parser; JSON and form bodies are held to HTTP_BODY_LIMIT_BYTES per route (request-hardening.ts).
    bodyLimit: Math.max(config.HTTP_MAX_BODY_BYTES ?? 52_428_800, config.HTTP_BODY_LIMIT_BYTES ?? 0),
    // A longer path parameter is answered 414 before any route runs; the documents state the bound.
    routerOptions: { maxParamLength: PATH_PARAM_MAX_LENGTH },
    // Only configured proxies' X-Forwarded-* are believed (none by default).
    trustProxy: trustedProxies(config.TRUSTED_PROXIES) || false,
    logger: false,
    clientErrorHandler,
    frameworkErrors,
  });
  const app = await NestFactory.create<NestFastifyApplication>(def.module, adapter, {
    logger: new JsonLogger(rootLogger(config.SERVICE_NAME, config.LOG_LEVEL)),
    bufferLogs: true,
    abortOnError: false,
    rawBody: def.rawBody ?? false,
  });
  // Nest registers the JSON and x-www-form-urlencoded parsers (repeated form fields become arrays).
  const fastify = app.getHttpAdapter().getInstance();
  // Before the routes are registered (app.init): it mirrors them to tell 405 from 404.
  registerMethodNotAllowed(fastify);
  const access = rootLogger().child({ context: 'http' });
  foregroundLoad.yieldAt = config.JOBS_YIELD_AT;
  fastify.addHook('onRequest', (req, reply, done) => {
    // Until 'close' (the response went out or the connection dropped) or the response turns into a stream.
    foregroundLoad.track(reply.raw);
    void reply.header('x-request-id', req.id);
    ambientContext.run({ requestId: String(req.id) }, done);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions?.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    httpRequestDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, seconds);
    // The access log: the route template (never the URL with its ids or query), no body, no key.
    if (!PROBE_ROUTES.has(route))
      access.info(
        {
          method: req.method,
          route,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          tenant_id: (req as unknown as AuthenticatedRequest)[CALLER]?.tenantId,
          request_id: req.id,
          trace_id: currentTraceId(),
        },
        'request',
      );
    done();
  });
  registerClientRateLimit(fastify, app.get(RateLimiterService));
  registerRequestHardening(fastify, {
    bodyLimit: config.HTTP_BODY_LIMIT_BYTES,
    auth: app.get(AuthGuard),
  });
  // The second half of idempotency (IdempotencyGuard claims the key): store the answer that leaves.
  const idempotency = app.get(IdempotencyService);
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (!IdempotencyService.isPending(req)) return done(null, payload);
    idempotency.storeResponse(req, reply, payload).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
  // Spans still buffered are exported before the process ends (nothing to do without tracing).
  fastify.addHook('onClose', (_instance, done) => {
    flushTraces().then(
      () => done(),
      () => done(),
    );
  });
  // The metrics listener (METRICS_PORT) closes with the app.
  fastify.addHook('onClose', (_instance, done) => {
    const metrics = metricsServers.get(app);
    if (!metrics) return done();
    metrics.close(() => done());
  });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();

  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app, def), { jsonDocumentUrl: 'docs/openapi.json' });

  if (def.consumesEvents) {
    app.connectMicroservice<MicroserviceOptions>({
      transport: Transport.KAFKA,
      options: {
        client: kafkaClientOptions(config.kafkaConnection, 'consumer'),
        consumer: {
          groupId: config.KAFKA_CONSUMER_GROUP ?? config.SERVICE_NAME,
          sessionTimeout: 10_000,
          heartbeatInterval: 1_000,
          maxWaitTimeInMs: config.KAFKA_CONSUMER_MAX_WAIT_MS,
          allowAutoTopicCreation: false,
        },
        subscribe: { fromBeginning: true },
        run: { partitionsConsumedConcurrently: config.KAFKA_PARTITIONS_CONCURRENCY },
        postfixId: '',
      },
    });
  }
  return app;
}

/** Starts consumers and the HTTP listener. */
export async function startServiceApp(
  app: NestFastifyApplication,
  def: ServiceDefinition,
  port = def.config.PORT,
): Promise<void> {
  await app.init();
  if (def.consumesEvents) await app.startAllMicroservices();
  await app.listen(port, def.config.HOST);
  if (def.config.METRICS_PORT !== undefined)
    metricsServers.set(app, await startMetricsServer(def.config.METRICS_PORT, def.config.HOST));
}

const migrationInput = (def: ServiceDefinition) => ({
  // PostgreSQL itself, not a transaction-mode pooler: migrations hold a session advisory lock.
  url: def.config.DATABASE_DIRECT_URL ?? def.config.DATABASE_URL,
  schema: def.config.DB_SCHEMA,
  entities: def.entities,
  migrations: def.migrations,
});

/**
 * A service's process entry: `main.js` serves; `main.js migrate` / `main.js migrate:revert` only
 * migrate (the Kubernetes migration Job and the Nx targets use these); `main.js admin <command> …`
 * runs one of the service's operator commands and exits (runAdminCommand).
 */
export async function runService(def: () => ServiceDefinition): Promise<INestApplication | void> {
  const command = process.argv[2];
  if (command === 'admin')
    process.exit(await runAdminCommand(process.env.SERVICE_NAME ?? 'service', def, process.argv.slice(3)));
  const log = rootLogger(process.env.SERVICE_NAME, process.env.LOG_LEVEL);
  let definition: ServiceDefinition;
  try {
    definition = def();
  } catch (err) {
    log.fatal({ err }, (err as Error).message);
    process.exit(1);
  }
  try {
    if (command === 'migrate' || command === 'migrate:revert') {
      if (command === 'migrate')
        log.info({ migrations: await migrateSchema(migrationInput(definition)) }, 'migrations applied');
      else await revertLastMigration(migrationInput(definition));
      process.exit(0);
    }
    const started = Date.now();
    if (definition.config.DB_MIGRATE_ON_START) {
      const ran = await migrateSchema(migrationInput(definition));
      if (ran.length) log.info({ migrations: ran }, 'migrations applied');
    }
    const app = await createServiceApp(definition);
    await startServiceApp(app, definition);
    log.info(
      { port: definition.config.PORT, ms: Date.now() - started, api_key_headers: API_KEY_HEADERS },
      `${definition.config.SERVICE_NAME} listening`,
    );
    return app;
  } catch (err) {
    log.fatal({ err }, `${definition.config.SERVICE_NAME} failed to start: ${(err as Error).message}`);
    process.exit(1);
  }
}

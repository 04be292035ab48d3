import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { API_KEY_HEADERS, AuthGuard, mergeRouteConfig, PayloadTooLargeException } from '@kyc/platform';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { EngagementConfig } from '../../config/engagement.config';
import { OutboundErrorCode, OutboundException } from '../outbounds.exception';
import { FormMediaBodyFilter, JsonMediaBodyFilter, KeptBodyTooLarge, MediaBodyFilter } from './media-body-filter';

/** A file to upload: its size, and its bytes as a stream (read from the spool, or from memory). */
export interface MediaFile {
  size: number;
  open(): Readable;
}

/** A file given whole (a call that did not come through the spool). */
export const mediaFileOf = (bytes: Buffer): MediaFile => ({ size: bytes.length, open: () => Readable.from([bytes]) });

const SPOOLED = Symbol('spooledMedia');
const ROUTE_FLAG = 'engagementSpooledMedia';
type SpooledRequest = FastifyRequest & { [SPOOLED]?: MediaFile };

/**
 * Marks the route whose JSON or form body carries a Base64 `file` that is spooled as it arrives
 * (see MediaUploadSpool); the handler reads it with spooledMedia(req).
 */
export const SpooledMediaUpload = (): MethodDecorator => (_target, _key, descriptor) => {
  mergeRouteConfig(descriptor.value as object, { [ROUTE_FLAG]: true } as never);
  return descriptor;
};

/** The spooled file of the request (undefined when its body had no valid, non-empty file). */
export const spooledMedia = (req: FastifyRequest): MediaFile | undefined => (req as SpooledRequest)[SPOOLED];

/**
 * Media uploads without holding them whole: a Base64 file of tens of MB in a JSON body is never
 * read whole into a string, a buffer and a multipart body (four copies of it in memory).
 *
 * For the marked route, a preParsing hook (after the platform checked the key and the body limit)
 * takes one of the tenant's upload slots (ENGAGEMENT_MEDIA_UPLOADS_PER_TENANT; none free: 429
 * `too_many_uploads` before a byte of the body is read), then reads the body as it arrives: the
 * file's text is decoded into a file in ENGAGEMENT_MEDIA_SPOOL_DIR, and the rest of the body (a
 * placeholder in place of the file) goes to the usual parser, validation and guard, unchanged.
 * The handler streams the spooled file to the provider. The file is deleted and the slot given
 * back when the request ends, however it ends.
 */
@Injectable()
export class MediaUploadSpool implements OnModuleInit {
  private readonly logger = new Logger('media-upload');
  private readonly inProgress = new Map<string, number>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly guard: AuthGuard,
    private readonly config: EngagementConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('preParsing', async (req, reply, payload) => {
      if (!(req.routeOptions?.config as unknown as Record<string, unknown> | undefined)?.[ROUTE_FLAG]) return payload;
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      const json = type.startsWith('application/json');
      if (!json && !type.startsWith('application/x-www-form-urlencoded')) return payload;
      return this.spool(req, reply, payload, json);
    });
  }

  /** Uploads of the tenant in progress in this process (tests and metrics). */
  uploadsInProgress(tenantId: string): number {
    return this.inProgress.get(tenantId) ?? 0;
  }

  private async spool(req: SpooledRequest, reply: FastifyReply, payload: Readable, json: boolean): Promise<Readable> {
    const token = API_KEY_HEADERS.map((h) => req.headers[h]).find((v): v is string => typeof v === 'string' && !!v);
    const tenantId = token ? (await this.guard.callerOf(token)).tenantId : undefined;
    if (!tenantId) return payload; // no key: the guard answers 401
    const release = this.acquire(tenantId, reply);
    const path = join(this.config.ENGAGEMENT_MEDIA_SPOOL_DIR || tmpdir(), `engagement-media-${randomUUID()}`);
    const spoolFile = new SpoolFile(path);
    const cleanup = () => {
      spoolFile.destroy();
      release();
      void rm(path, { force: true }).catch(() => undefined);
    };
    reply.raw.once('close', cleanup);
    const filter: MediaBodyFilter = json
      ? new JsonMediaBodyFilter(spoolFile.write, spoolFile.restart)
      : new FormMediaBodyFilter(spoolFile.write, spoolFile.restart);
    let received = 0;
    try {
      for await (const chunk of payload) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        received += bytes.length;
        filter.write(bytes);
        await spoolFile.drained();
      }
      if (filter instanceof FormMediaBodyFilter) filter.finish();
      await spoolFile.close();
    } catch (err) {
      cleanup();
      if (err instanceof KeptBodyTooLarge) {
        void reply.header('connection', 'close');
        throw new PayloadTooLargeException(err.message);
      }
      throw err;
    }
    if (filter.outcome === 'valid') {
      const size = filter.size;
      req[SPOOLED] = { size, open: () => createReadStream(path) };
    }
    const body = Readable.from([filter.body()]);
    // Fastify compares what the preParsing stream says it read with the declared content-length.
    return Object.assign(body, { receivedEncodedLength: received });
  }

  /** Takes one of the tenant's upload slots; answers the release (idempotent). */
  private acquire(tenantId: string, reply: FastifyReply): () => void {
    const bound = this.config.ENGAGEMENT_MEDIA_UPLOADS_PER_TENANT;
    const current = this.inProgress.get(tenantId) ?? 0;
    if (current >= bound) {
      this.logger.warn({ msg: 'media upload refused: too many in progress', tenant_id: tenantId, bound });
      void reply.header('connection', 'close').header('retry-after', '1');
      throw new OutboundException(
        OutboundErrorCode.TooManyUploads,
        `this account already has ${bound} media uploads in progress: retry when one of them has finished`,
      );
    }
    this.inProgress.set(tenantId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inProgress.get(tenantId) ?? 1) - 1;
      if (left > 0) this.inProgress.set(tenantId, left);
      else this.inProgress.delete(tenantId);
    };
  }
}

/** The file an upload is decoded into, written with backpressure (the body is read no faster than the disk takes it). */
class SpoolFile {
  private out: WriteStream;
  private drain: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private error: Error | null = null;

  constructor(private readonly path: string) {
    this.out = this.open();
  }

  readonly write = (bytes: Buffer): void => {
    if (this.out.write(bytes) || this.drain) return;
    this.drain = new Promise<void>((resolve) => {
      this.wake = resolve;
      this.out.once('drain', resolve);
    }).then(() => {
      this.drain = null;
      this.wake = null;
    });
  };

  /** A later file field replaces an earlier one: start the file again. */
  readonly restart = (): void => {
    this.out.destroy();
    this.wake?.();
    this.out = this.open();
  };

  /** Waits until the written bytes went to disk (when the stream asked to wait); throws a write error. */
  async drained(): Promise<void> {
    if (this.drain) await this.drain;
    if (this.error) throw this.error;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (this.error) throw this.error;
  }

  destroy(): void {
    this.out.destroy();
    this.wake?.();
  }

  private open(): WriteStream {
    const stream = createWriteStream(this.path, { mode: 0o600 });
    stream.on('error', (err) => {
      this.error = err;
      this.wake?.();
    });
    return stream;
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

import { ATTACHMENT_MAX_BYTES } from './attachments.service';

/**
 * Attachment uploads arrive as raw bytes (image/*, application/pdf, text/*, application/octet-stream):
 * Fastify hands them over as a Buffer, 10 MiB at most (413 beyond).
 */
@Injectable()
export class UploadBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addContentTypeParser(
      [
        'image/png',
        'image/jpeg',
        'image/gif',
        'image/webp',
        'application/pdf',
        'text/plain',
        'text/markdown',
        'text/csv',
        'application/octet-stream',
      ],
      { parseAs: 'buffer', bodyLimit: ATTACHMENT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
  }
}

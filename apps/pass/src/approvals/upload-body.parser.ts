import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

import { ATTACHMENT_MAX_BYTES } from './attachments.service';

/**
 * Attachment uploads arrive as raw bytes (image/*, application/pdf, text/*, application/octet-stream):
 * Fastify hands them over as a Buffer, 10 MiB at most (413 beyond). Other routes refuse these types (415).
 */
const UPLOAD_ROUTE = '/approval-attachments/uploads/';
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
      (req, body, done) => {
        // Only the upload route reads raw bytes; every other route reads JSON or form fields (415).
        if (!req.routeOptions?.url?.includes(UPLOAD_ROUTE))
          return done(
            Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type'] ?? ''}`), {
              statusCode: 415,
              code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
            }),
            undefined,
          );
        done(null, body);
      },
    );
  }
}

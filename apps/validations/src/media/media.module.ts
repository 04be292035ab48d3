import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';

import { ValidationsConfig } from '../config/validations.config';
import { Secrets } from '../shared/link-signer';
import { MediaController } from './media.controller';
import { MediaEntity } from './media.entity';
import { MediaService, UPLOAD_ROUTE } from './media.service';

@Module({
  imports: [TypeOrmModule.forFeature([MediaEntity])],
  controllers: [MediaController],
  providers: [MediaService, Secrets],
  exports: [MediaService, Secrets],
})
export class MediaModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly config: ValidationsConfig,
  ) {}

  /**
   * Base64 bodies sent as application/octet-stream are read as text on the upload route only
   * (text/plain has Fastify's own parser); any other route still refuses that type with 415.
   */
  onModuleInit(): void {
    const fastify = this.http.httpAdapter?.getInstance?.<FastifyInstance>();
    if (!fastify?.addContentTypeParser || fastify.hasContentTypeParser('application/octet-stream')) return;
    const bodyLimit = Math.ceil(this.config.VALIDATIONS_MEDIA_MAX_BYTES / 3) * 4 + 1024;
    fastify.addContentTypeParser('application/octet-stream', { parseAs: 'string', bodyLimit }, (req, body, done) => {
      if (req.routeOptions?.url !== UPLOAD_ROUTE)
        return done(
          Object.assign(new Error('Unsupported Media Type: application/octet-stream'), {
            statusCode: 415,
            code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          }),
          undefined,
        );
      done(null, body);
    });
  }
}

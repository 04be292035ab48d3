import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';

import { ChecksModule } from '../checks/checks.module';
import { ChecksConfig } from '../config/checks.config';
import { ContinuousChecksModule } from '../continuous-checks/continuous-checks.module';
import { BatchEntity } from './batch.entity';
import { BatchStore } from './batch.store';
import { BATCH_FILE_ROUTE, BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';
import { BatchesWorker } from './batches.worker';
import { BatchSpreadsheetReader } from './spreadsheet/batch-spreadsheet-reader';
import { BatchFileStorage, batchFileStorageFactory } from './storage/batch-file-storage';

/** Content types of an uploaded batch file, read as raw bytes on the upload route only. */
export const BATCH_FILE_CONTENT_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/octet-stream',
];

@Module({
  imports: [TypeOrmModule.forFeature([BatchEntity]), ChecksModule, ContinuousChecksModule],
  controllers: [BatchesController],
  providers: [
    BatchStore,
    BatchesService,
    BatchesWorker,
    BatchSpreadsheetReader,
    { provide: BatchFileStorage, useFactory: batchFileStorageFactory, inject: [ChecksConfig, BatchStore] },
  ],
})
export class BatchesModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly config: ChecksConfig,
  ) {}

  /**
   * Raw-body parser for xlsx uploads, limited to CHECKS_BATCH_MAX_FILE_BYTES. Any other route
   * still refuses these content types with 415, as without this parser.
   */
  onModuleInit(): void {
    const fastify = this.http.httpAdapter?.getInstance?.<FastifyInstance>();
    if (!fastify?.addContentTypeParser || fastify.hasContentTypeParser(BATCH_FILE_CONTENT_TYPES[0])) return;
    fastify.addContentTypeParser(
      BATCH_FILE_CONTENT_TYPES,
      { parseAs: 'buffer', bodyLimit: this.config.CHECKS_BATCH_MAX_FILE_BYTES },
      (req, body, done) => {
        if (req.routeOptions?.url !== BATCH_FILE_ROUTE) {
          const err = Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type']}`), {
            statusCode: 415,
            code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          });
          return done(err, undefined);
        }
        done(null, body);
      },
    );
  }
}

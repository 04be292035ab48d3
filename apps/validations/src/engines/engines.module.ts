import { Module } from '@nestjs/common';

import { DOCUMENT_ENGINE, FACE_ENGINE, GOVERNMENT_REGISTRY } from './engine.ports';

const notDelivered = () => Promise.reject(new Error('the engines are not built into this service yet'));

/**
 * Placeholder until the engines land (branch i15e provides the real EnginesModule): every call
 * fails, so validations that need an engine end with failure_reason engine_error.
 */
@Module({
  providers: [
    { provide: DOCUMENT_ENGINE, useValue: { validate: notDelivered } },
    { provide: FACE_ENGINE, useValue: { describe: notDelivered, similarity: () => 0 } },
    { provide: GOVERNMENT_REGISTRY, useValue: { lookup: notDelivered } },
  ],
  exports: [DOCUMENT_ENGINE, FACE_ENGINE, GOVERNMENT_REGISTRY],
})
export class EnginesModule {}

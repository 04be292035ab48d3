// The engines the validators run, behind the ports of engine.ports.ts. Import EnginesModule for the
// defaults, or EnginesModule.register({...}) to set model paths and the sandbox registry's latency
// (e.g. from the app's config). Nothing here reaches the network: the OCR model and the face models are
// read from their npm packages in node_modules.

import { Clock } from '@kyc/platform';
import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';

import { ValidationsConfig } from '../config/validations.config';
import { OcrDocumentEngine } from './document/document.engine';
import { TesseractRecognizer } from './document/ocr';
import { warmUpDocumentThreads } from './document/warm-up';
import { WorkerDocumentImageAnalyzer } from './document/worker-analyzer';
import { DOCUMENT_ENGINE, FACE_ENGINE, GOVERNMENT_REGISTRY, type GovernmentRegistry } from './engine.ports';
import { WorkerFaceEngine } from './face/face.engine';
import { SandboxGovernmentRegistry } from './government/sandbox-government-registry';
import { setEngineNice } from './worker/worker-host';

export const ENGINES_OPTIONS = Symbol('ENGINES_OPTIONS');

export interface EnginesOptions {
  /** Directory of eng.traineddata.gz (default: @tesseract.js-data/eng's 4.0.0_best_int in node_modules). */
  ocrLangPath?: string;
  /** Directory of the face-api model files (default: @vladmandic/face-api's model/ in node_modules). */
  faceModelPath?: string;
  /** Simulated latency of the sandbox government registry, ms (default 30). */
  registryLatencyMs?: number;
  /** Nice value of the engine threads (default: the service's VALIDATIONS_ENGINE_NICE, else 10). */
  engineNice?: number;
}

/**
 * Owns the engines' threads (tesseract workers, the image and face worker threads): starts them once the
 * application is up (models loaded and run once: the face nets on a blank picture, the image thread and both
 * OCR workers on a synthetic page, document/warm-up.ts; so no validation waits for them) without holding the
 * boot, and stops them on shutdown.
 */
@Injectable()
export class EngineThreads implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('engines');
  readonly ocr: TesseractRecognizer;
  readonly analyzer: WorkerDocumentImageAnalyzer;
  readonly face: WorkerFaceEngine;
  private closing = false;

  constructor(@Inject(ENGINES_OPTIONS) options: EnginesOptions, @Optional() config?: ValidationsConfig) {
    // Before any engine thread starts: each takes the value when it starts (worker-host.ts).
    const nice = options.engineNice ?? config?.VALIDATIONS_ENGINE_NICE;
    if (nice !== undefined) setEngineNice(nice);
    this.ocr = new TesseractRecognizer({ langPath: options.ocrLangPath });
    this.analyzer = new WorkerDocumentImageAnalyzer();
    this.face = new WorkerFaceEngine({ modelPath: options.faceModelPath });
  }

  onApplicationBootstrap(): void {
    Promise.all([this.face.warmUp(), warmUpDocumentThreads(this.analyzer, this.ocr)]).catch((err: Error) => {
      // A shutdown during the warm-up (a short-lived process) stops it: nothing to report.
      if (!this.closing) this.logger.warn({ err, msg: 'engine warm-up failed; the engines start on first use' });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([this.ocr.close(), this.analyzer.close(), this.face.close()]);
  }
}

function providers(options: EnginesOptions) {
  return [
    { provide: ENGINES_OPTIONS, useValue: options },
    EngineThreads,
    {
      provide: GOVERNMENT_REGISTRY,
      useFactory: () => new SandboxGovernmentRegistry({ latencyMs: options.registryLatencyMs }),
    },
    {
      provide: DOCUMENT_ENGINE,
      inject: [EngineThreads, GOVERNMENT_REGISTRY, { token: Clock, optional: true }],
      useFactory: (threads: EngineThreads, registry: GovernmentRegistry, clock?: Clock) =>
        new OcrDocumentEngine({
          analyzer: threads.analyzer,
          ocr: threads.ocr,
          registry,
          now: () => (clock ? clock.now() : new Date()),
        }),
    },
    { provide: FACE_ENGINE, inject: [EngineThreads], useFactory: (threads: EngineThreads) => threads.face },
  ];
}

@Module({
  providers: providers({}),
  exports: [DOCUMENT_ENGINE, FACE_ENGINE, GOVERNMENT_REGISTRY],
})
export class EnginesModule {
  static register(options: EnginesOptions): DynamicModule {
    return {
      module: EnginesModule,
      providers: providers(options),
      exports: [DOCUMENT_ENGINE, FACE_ENGINE, GOVERNMENT_REGISTRY],
    };
  }
}

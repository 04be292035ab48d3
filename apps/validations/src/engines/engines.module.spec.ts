import { Test } from '@nestjs/testing';

import { OcrDocumentEngine } from './document/document.engine';
import {
  DOCUMENT_ENGINE,
  FACE_ENGINE,
  type FaceEngine,
  GOVERNMENT_REGISTRY,
  type GovernmentRegistry,
} from './engine.ports';
import { EnginesModule } from './engines.module';
import { WorkerFaceEngine } from './face/face.engine';
import { SandboxGovernmentRegistry } from './government/sandbox-government-registry';

describe('EnginesModule', () => {
  it('provides the three engine tokens (threads start lazily, so nothing loads here)', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [EnginesModule.register({ registryLatencyMs: 0 })],
    }).compile();
    expect(moduleRef.get(DOCUMENT_ENGINE)).toBeInstanceOf(OcrDocumentEngine);
    expect(moduleRef.get<FaceEngine>(FACE_ENGINE)).toBeInstanceOf(WorkerFaceEngine);
    const registry = moduleRef.get<GovernmentRegistry>(GOVERNMENT_REGISTRY);
    expect(registry).toBeInstanceOf(SandboxGovernmentRegistry);
    await expect(
      registry.lookup({ country: 'CO', documentType: 'national-id', documentNumber: '1.020.304.050' }),
    ).resolves.toEqual({
      found: true,
      firstName: 'María José',
      lastName: 'Pérez Gómez',
      dateOfBirth: '1990-05-17',
    });
    await expect(
      registry.lookup({ country: 'CO', documentType: 'national-id', documentNumber: '99999999' }),
    ).rejects.toThrow('unavailable');
    await moduleRef.close();
  });
});

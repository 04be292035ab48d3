// The test renderer's thread: pixel-heavy helpers (document rendering, face crops) run here, as plain Node,
// because the same loops run ~20x slower inside jest's module sandbox.

import { serve } from '../../../src/engines/worker/worker-host';
import { renderIdCard, type RenderOptions, renderPassport } from './document-images';
import {
  type CropOptions,
  differentPeoplePhotos,
  faceCrop,
  recapturedFacePhoto,
  samePersonPhotos,
  type SampleFace,
} from './face-samples';

export type RendererCall =
  | { fn: 'renderIdCard'; options?: RenderOptions }
  | { fn: 'renderPassport'; options?: RenderOptions }
  | { fn: 'faceCrop'; face: SampleFace; options?: CropOptions }
  | { fn: 'samePersonPhotos'; face?: SampleFace }
  | { fn: 'differentPeoplePhotos' }
  | { fn: 'recapturedFacePhoto'; face?: SampleFace };

function run(call: RendererCall): unknown {
  switch (call.fn) {
    case 'renderIdCard':
      return renderIdCard(call.options);
    case 'renderPassport':
      return renderPassport(call.options);
    case 'faceCrop':
      return faceCrop(call.face, call.options);
    case 'samePersonPhotos':
      return samePersonPhotos(call.face);
    case 'differentPeoplePhotos':
      return differentPeoplePhotos();
    case 'recapturedFacePhoto':
      return recapturedFacePhoto(call.face);
  }
}

serve<RendererCall, unknown>(
  () => Promise.resolve(),
  async (call) => ({ result: await run(call) }),
);

import { Injectable } from '@nestjs/common';

import { MediaEntity, MediaSlot } from '../media/media.entity';
import { MediaService } from '../media/media.service';
import { ValidationEntity } from './validation.entity';

const LINK_NAMES: Record<MediaSlot, string> = {
  front: 'front_url',
  reverse: 'reverse_url',
  face_photo: 'file_upload_link',
  video: 'video_upload_link',
};

/** The `instructions` of a validation: upload links of the slots still empty, while it waits for them. */
@Injectable()
export class ValidationInstructions {
  constructor(private readonly media: MediaService) {}

  of(v: ValidationEntity, media: MediaEntity[], baseUrl: string): Record<string, string> {
    if (v.status !== 'pending' || v.deletedAt) return {};
    const out: Record<string, string> = {};
    for (const slot of media.filter((s) => !s.uploadedAt))
      out[LINK_NAMES[slot.slot]] = this.media.uploadLink(baseUrl, slot, v.expiresAt);
    if (Object.keys(out).length) out.upload_expiration = v.expiresAt.toISOString();
    if (v.inputs.speech_token) out.speech_token = String(v.inputs.speech_token);
    return out;
  }
}

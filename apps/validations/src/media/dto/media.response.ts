import { ApiProperty } from '@nestjs/swagger';

/** The answer to an upload (PUT {file_upload_url}). */
export class UploadResponse {
  @ApiProperty() media_id!: string;
  @ApiProperty({ enum: ['front', 'reverse', 'face_photo', 'video'] }) slot!: string;
  @ApiProperty({ description: 'Judged from the bytes' }) content_type!: string;
  @ApiProperty({ description: 'Decoded bytes' }) size!: number;
  @ApiProperty({ enum: ['uploaded'] }) status!: string;
}

export const UPLOAD_EXAMPLE = {
  media_id: 'MED019ab9f2c4e0a1b2c3d4e5f6a8',
  slot: 'front',
  content_type: 'image/jpeg',
  size: 183204,
  status: 'uploaded',
};

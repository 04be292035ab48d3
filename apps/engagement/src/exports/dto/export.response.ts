import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { EXPORT_LANGUAGES, EXPORT_TYPES } from '../chat-export.entity';

export class ExportResponse {
  @ApiProperty({ example: 'EXP1f0e5b1f0c2e9d8a4b7c8f6e5d4c3b2a' })
  export_id!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ enum: EXPORT_TYPES })
  export_type!: string;

  @ApiProperty({ example: 'tsv' })
  export_format!: string;

  @ApiProperty({ enum: EXPORT_LANGUAGES })
  language!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  chat_id!: string | null;

  @ApiProperty({ example: '2026-10' })
  time_range_start_date!: string;

  @ApiProperty({ example: '2026-11' })
  time_range_end_date!: string;

  @ApiProperty({ description: 'Who asked for it (e-mail)' })
  requested_by!: string;

  @ApiProperty({ enum: ['pending', 'completed', 'failed'] })
  status!: string;

  @ApiPropertyOptional({ type: Number, description: 'Data rows of the file (completed)', nullable: true })
  rows!: number | null;

  @ApiPropertyOptional({ description: 'Signed link to the TSV (completed); expires at download_expires_at' })
  download_url?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  download_expires_at?: string;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  completed_at!: string | null;
}

export const EXPORT_EXAMPLE = {
  export_id: 'EXP1f0e5b1f0c2e9d8a4b7c8f6e5d4c3b2a',
  name: 'November chats',
  export_type: 'all_chats',
  export_format: 'tsv',
  language: 'es',
  chat_id: null,
  time_range_start_date: '2026-10',
  time_range_end_date: '2026-11',
  requested_by: 'supervisor@acme.com',
  status: 'completed',
  rows: 1520,
  download_url:
    'https://engagement.example.com/v1/engagement/chat/export/EXP1f0e5b1f0c2e9d8a4b7c8f6e5d4c3b2a/file?expires=1795000000&signature=q1…',
  download_expires_at: '2026-11-25T10:15:00.000Z',
  creation_date: '2026-11-25T10:00:00.000Z',
  completed_at: '2026-11-25T10:00:02.000Z',
};

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CampaignProgressResponse {
  @ApiProperty()
  total!: number;

  @ApiProperty()
  sent!: number;

  @ApiProperty()
  failed!: number;

  @ApiProperty()
  pending!: number;

  @ApiProperty()
  cancelled!: number;

  @ApiProperty({ description: 'Finished recipients (sent, failed, cancelled), in percent' })
  percent!: number;
}

/** A campaign and its progress. */
export class CampaignResponse {
  @ApiProperty()
  campaign_id!: string;

  @ApiProperty()
  outbound_id!: string;

  @ApiPropertyOptional()
  flow_id?: string;

  @ApiProperty({ enum: ['processing', 'completed', 'cancelled'] })
  status!: string;

  @ApiProperty({ description: 'Messages a second' })
  rate!: number;

  @ApiProperty({ type: CampaignProgressResponse })
  progress!: CampaignProgressResponse;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  finish_date?: string;
}

export const CAMPAIGN_EXAMPLE: CampaignResponse = {
  campaign_id: 'CMP3c4d5e6f7a8b49c0d1e2f3a4b5c6d7e8',
  outbound_id: 'OTB0c1d2e3f4a5b46c7d8e9f0a1b2c3d4e5',
  status: 'processing',
  rate: 80,
  progress: { total: 10000, sent: 4200, failed: 12, pending: 5788, cancelled: 0, percent: 42 },
  creation_date: '2026-11-25T10:00:00.000Z',
};

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChannelResponse {
  @ApiProperty({ description: "The provider's phone-number id", example: '106540352242922' })
  channel_id!: string;

  @ApiProperty({ example: 'whatsapp' })
  channel_type!: string;

  @ApiProperty({ description: 'The line (phone with country code); also its queue', example: '+573000000001' })
  waba_line!: string;

  @ApiProperty()
  waba_id!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Ventas' })
  name!: string | null;

  @ApiProperty({ example: 'HIGH' })
  quality_rating!: string;

  @ApiProperty({ description: 'Open chats of the channel' })
  open_chats!: number;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;
}

export const CHANNEL_EXAMPLE = {
  channel_id: '106540352242922',
  channel_type: 'whatsapp',
  waba_line: '+573000000001',
  waba_id: '102290129340398',
  name: 'Ventas',
  quality_rating: 'HIGH',
  open_chats: 12,
  creation_date: '2026-11-25T06:00:00.000Z',
};

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PermissionsResponse {
  @ApiProperty({ enum: ['account', 'user'] }) list!: string;
  @ApiPropertyOptional({ description: "list=user: the calling user's role" }) role?: string;
  @ApiProperty({ type: [String] }) permissions!: string[];
}

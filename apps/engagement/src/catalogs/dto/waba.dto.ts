import { Trim } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

/** POST .../link-waba and POST .../publish: the business account (WABA) id. */
export class WabaDto {
  @ApiProperty({ example: '102290129340398', description: "The account's WhatsApp Business Account id" })
  @Trim()
  @IsString()
  @MaxLength(64)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'waba_id must be a business account id' })
  waba_id!: string;
}

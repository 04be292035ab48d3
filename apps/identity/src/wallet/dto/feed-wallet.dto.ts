import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

/** POST /v1/processes/feed-wallet (JSON). */
export class FeedWalletDto {
  @ApiProperty({
    description:
      'Wallet authorization code delivered by the sign-up frame (web message); exchanged for an access token',
    example: 'fWq3Zk1vVn0wS0pHd2pQcG9xY3JtYkJf',
  })
  @IsString()
  @MaxLength(2048)
  @Matches(/^[A-Za-z0-9._~-]+$/, { message: 'code must be an authorization code (letters, digits, . _ ~ -)' })
  code!: string;
}

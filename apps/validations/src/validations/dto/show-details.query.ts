import { ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

export class ShowDetailsQuery {
  @ApiPropertyOptional({ description: 'true adds the inputs and media links valid 15 minutes' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'show_details must be true or false' })
  show_details?: boolean;
}

import { ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** PUT /v1/admin/tenants/{tenant_id}/validation-features (platform operators). */
export class UpdateFeaturesDto {
  @ApiPropertyOptional({
    description:
      'Authorize enrollments with confirmation=none; only API keys issued after this authorization may use it',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'confirmation_none must be true or false' })
  confirmation_none?: boolean;

  @ApiPropertyOptional({ description: 'Activate use_manual_review for face-recognition' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'face_manual_review must be true or false' })
  face_manual_review?: boolean;
}

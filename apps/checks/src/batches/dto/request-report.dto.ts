import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn } from 'class-validator';

import { REPORT_FORMATS, ReportFormat } from '../batch.entity';

export class RequestReportDto {
  @ApiProperty({ enum: REPORT_FORMATS })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsIn(REPORT_FORMATS, { message: `format must be one of ${REPORT_FORMATS.join(', ')}` })
  format!: ReportFormat;
}

import { ApiProperty } from '@nestjs/swagger';

export class PdfRequestedResponse {
  @ApiProperty() check_id!: string;
  @ApiProperty({ example: 'generating' }) status!: string;
  @ApiProperty({ example: '/v1/checks/CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c/pdf' }) pdf_path!: string;
  @ApiProperty({ format: 'date-time' }) requested_at!: string;
}

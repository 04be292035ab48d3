import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ChecksModule } from '../checks/checks.module';
import { CheckPdfEntity } from './check-pdf.entity';
import { PdfController } from './pdf.controller';
import { PdfService } from './pdf.service';

@Module({
  imports: [TypeOrmModule.forFeature([CheckPdfEntity]), ChecksModule],
  controllers: [PdfController],
  providers: [PdfService],
})
export class PdfModule {}

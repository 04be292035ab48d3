import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ChecksModule } from '../checks/checks.module';
import { CheckPdfEntity } from './check-pdf.entity';
import { CheckPdfStore } from './check-pdf.store';
import { PdfController } from './pdf.controller';
import { PdfService } from './pdf.service';

@Module({
  imports: [TypeOrmModule.forFeature([CheckPdfEntity]), ChecksModule],
  controllers: [PdfController],
  providers: [PdfService, CheckPdfStore],
})
export class PdfModule {}

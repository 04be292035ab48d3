import { Public } from '@kyc/platform';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { ApprovalOutcomesService } from './approval-outcomes.service';
import { AttachmentsService } from './attachments.service';
import { ApprovalOutcomeQuery } from './dto/approval-outcome.query';
import { StageAttachmentDto } from './dto/stage-attachment.dto';

/** Rich approval requests: staged attachments (client credentials in the body) and the outcome (bearer token). */
@ApiTags('oauth2')
@Public()
@Controller('v1/oauth2')
export class ApprovalAttachmentsController {
  constructor(
    private readonly attachments: AttachmentsService,
    private readonly outcomes: ApprovalOutcomesService,
  ) {}

  @Post('approval-attachments')
  @HttpCode(200)
  async stage(@Body() dto: StageAttachmentDto) {
    return this.attachments.stage(dto);
  }

  @Put('approval-attachments/uploads/*')
  async upload(
    @Param('*') s3Key: string,
    @Query('expires') expires: string,
    @Query('sig') sig: string,
    @Body() body: unknown,
  ) {
    return this.attachments.upload(s3Key, expires, sig, body);
  }

  @Get('approval-outcome')
  async outcome(@Headers('authorization') authorization: string | undefined, @Query() query: ApprovalOutcomeQuery) {
    return this.outcomes.get(authorization, query.auth_req_id);
  }
}

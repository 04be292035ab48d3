import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, Public } from '@kyc/platform';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';

import { ApprovalOutcomesService } from './approval-outcomes.service';
import { AttachmentsService } from './attachments.service';
import { ApprovalOutcomeQuery } from './dto/approval-outcome.query';
import { StageAttachmentDto } from './dto/stage-attachment.dto';

const S3_KEY = 'approvals/pc_5b0c2f6d8e1a4b7c9d0e1f2a/1f0e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';

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
  @ApiPublic()
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['upload_url', 's3_key', 'expires_in'],
      properties: {
        upload_url: { type: 'string', description: 'PUT the bytes here within 10 minutes (10 MiB at most)' },
        s3_key: { type: 'string', description: 'Reference it from authorization_details at bc-authorize' },
        expires_in: { type: 'integer', example: 600 },
      },
    },
    example: {
      upload_url: `https://pass.example/v1/oauth2/approval-attachments/uploads/${encodeURIComponent(S3_KEY)}?expires=1764054600&sig=Xq3…`,
      s3_key: S3_KEY,
      expires_in: 600,
    },
  })
  @ApiEnvelopeErrors(400, { 401: ['invalid client credentials', 'bad_credentials'] })
  async stage(@Body() dto: StageAttachmentDto) {
    return this.attachments.stage(dto);
  }

  @Put('approval-attachments/uploads/*')
  @ApiPublic()
  @ApiConsumes(
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'application/pdf',
    'text/plain',
    'text/markdown',
    'text/csv',
    'application/octet-stream',
  )
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['s3_key', 'size'],
      properties: { s3_key: { type: 'string' }, size: { type: 'integer' } },
    },
    example: { s3_key: S3_KEY, size: 48213 },
  })
  @ApiEnvelopeErrors(
    { 400: ['PDF files with scripts or actions are refused', 'active_content_refused'] },
    { 403: ['the upload link is invalid, expired or used', 'upload_link_invalid'] },
    { 413: ['attachments are at most 10 MiB', 'attachment_too_large'] },
  )
  async upload(
    @Param('*') s3Key: string,
    @Query('expires') expires: string,
    @Query('sig') sig: string,
    @Body() body: unknown,
  ) {
    return this.attachments.upload(s3Key, expires, sig, body);
  }

  @Get('approval-outcome')
  @ApiPublic()
  @ApiBearerAuth()
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['auth_req_id', 'decision', 'form_data', 'decided_at'],
      properties: {
        auth_req_id: { type: 'string' },
        decision: { type: 'string', enum: ['approved', 'declined'] },
        form_data: { type: 'object', additionalProperties: true, description: 'The answers to the requested fields' },
        decided_at: { type: 'string', format: 'date-time' },
      },
    },
    example: {
      auth_req_id: 'Xk3p9…',
      decision: 'approved',
      form_data: { amount: 1500.5, purpose: 'home', accept: true },
      decided_at: '2026-11-25T07:03:00.000Z',
    },
  })
  @ApiEnvelopeErrors(
    400,
    { 401: ['missing or invalid bearer token', 'invalid_token'] },
    { 403: ['the token needs the scope approval:read', 'insufficient_scope'] },
    { 404: ['no decided approval of this application has that auth_req_id', 'approval_not_found'] },
  )
  async outcome(@Headers('authorization') authorization: string | undefined, @Query() query: ApprovalOutcomeQuery) {
    return this.outcomes.get(authorization, query.auth_req_id);
  }
}

import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

import { ProcessFileEntity } from './process-file.entity';
import { ProcessFilesService } from './process-files.service';

const FILE_STATUS_SCHEMA = {
  type: 'object',
  required: ['process_id', 'file_status'],
  properties: { process_id: { type: 'string' }, file_status: { type: 'string', enum: ['requested', 'in_progress'] } },
};

/**
 * GET /v1/processes/{id}/pdf and /video-call-recordings: 202 with `file_status` while the file is
 * requested or in progress, then 302 to the file (a relative Location), whose GET answers 200 with it.
 */
@ApiTags('processes')
@BackendKeys()
@Controller('v1/processes/:process_id')
export class ProcessFilesController {
  constructor(private readonly files: ProcessFilesService) {}

  @Get('pdf')
  @ApiSuccess({
    status: 202,
    schema: FILE_STATUS_SCHEMA,
    example: { process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9', file_status: 'requested' },
    description: 'Requested or being generated: poll again',
  })
  @ApiResponse({ status: 302, description: 'Ready: the Location header is the file (GET it: 200 application/pdf)' })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async pdf(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(await this.files.request(caller, id, 'pdf'), reply);
  }

  @Get('video-call-recordings')
  @ApiSuccess({
    status: 202,
    schema: FILE_STATUS_SCHEMA,
    example: { process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9', file_status: 'in_progress' },
    description: 'Requested or being generated (flows here have no video-call step: 404 file_not_found)',
  })
  @ApiResponse({ status: 302, description: 'Ready: the Location header is the file' })
  @ApiEnvelopeErrors({
    404: ['process IDP… has no video-call recordings: its flow has no video-call step', 'file_not_found'],
  })
  async recordings(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(await this.files.request(caller, id, 'video-call-recordings'), reply);
  }

  @Get('files/:file_id')
  @ApiSuccess({ contentType: 'application/pdf', description: 'The generated file (the Location of a ready file)' })
  @ApiProduces('application/pdf')
  @ApiEnvelopeErrors({ 404: ['file FIL… of process IDP… is not ready', 'file_not_found'] })
  async file(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Param('file_id') fileId: string) {
    const file = await this.files.content(caller, id, fileId);
    return new StreamableFile(file.content!, {
      type: file.contentType ?? 'application/octet-stream',
      disposition: `inline; filename="${file.processId}.pdf"`,
      length: file.content!.length,
    });
  }

  private answer(file: ProcessFileEntity, reply: FastifyReply) {
    if (file.status === 'ready') {
      void reply.status(302).header('location', fileLocation(file));
      return { process_id: file.processId, file_status: file.status, location: fileLocation(file) };
    }
    void reply.status(202);
    return { process_id: file.processId, file_status: file.status };
  }
}

export const fileLocation = (f: ProcessFileEntity) => `/v1/processes/${f.processId}/files/${f.id}`;

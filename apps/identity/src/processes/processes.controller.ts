import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  EndUserKeys,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import {
  AddVerificationDto,
  BackDto,
  ListProcessesQuery,
  OverrideStatusDto,
  StepInputDto,
  UpdateProcessDto,
} from './dto/process.dto';
import { PROCESS_EXAMPLE, ProcessResponse, RESULT_EXAMPLE, RESULT_SCHEMA } from './dto/process.response';
import { presentProcess, presentResult } from './process.presenter';
import { ProcessesService } from './processes.service';
import { AddVerificationUseCase } from './use-cases/add-verification.use-case';
import { CreateProcessUseCase } from './use-cases/create-process.use-case';
import { DeleteProcessUseCase } from './use-cases/delete-process.use-case';
import { OverrideStatusUseCase } from './use-cases/override-status.use-case';
import { StepBackUseCase } from './use-cases/step-back.use-case';
import { SubmitStepUseCase } from './use-cases/submit-step.use-case';
import { UpdateProcessUseCase } from './use-cases/update-process.use-case';

@ApiTags('processes')
@BackendKeys()
@Controller('v1/processes')
export class ProcessesController {
  constructor(
    private readonly processes: ProcessesService,
    private readonly createProcess: CreateProcessUseCase,
    private readonly submitStep: SubmitStepUseCase,
    private readonly updateProcess: UpdateProcessUseCase,
    private readonly deleteProcess: DeleteProcessUseCase,
    private readonly addVerificationStep: AddVerificationUseCase,
    private readonly stepBack: StepBackUseCase,
    private readonly overrideStatus: OverrideStatusUseCase,
    private readonly config: PlatformConfig,
  ) {}

  @EndUserKeys()
  @Post()
  @ApiSuccess({ status: 201, type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors(
    {
      403: [
        'a process is created with a temporary web key of the digital-identity grant bound to a flow',
        'web_key_required',
      ],
    },
    { 404: ['flow IDFnope not found', 'flow_not_found'] },
    { 409: ['this key already started a process: one key, one process', 'key_already_used'] },
  )
  async create(@CurrentCaller() caller: Caller) {
    const p = await this.createProcess.execute(caller);
    return presentProcess(p);
  }

  @Get()
  @ApiPage({ items: 'processes', type: ProcessResponse, example: [PROCESS_EXAMPLE], self: '/v1/processes' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListProcessesQuery, @Req() req: FastifyRequest) {
    const page = await this.processes.list(caller, query);
    return { processes: page.items.map(presentProcess), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @EndUserKeys()
  @Get(':process_id')
  @ApiSuccess({ type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentProcess(await this.processes.get(caller, id));
  }

  @EndUserKeys()
  @Post(':process_id')
  @HttpCode(200)
  @ApiSuccess({ type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors(
    { 400: ['the expected inputs do not match the step', 'wrong_step'] },
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['process IDP… is already success', 'process_finished'] },
    413,
    { 429: ['too many attempts: try again in 15 minutes (or a rate limit)', 'too_many_attempts'] },
  )
  async submit(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: StepInputDto) {
    return presentProcess(await this.submitStep.execute(caller, id, dto));
  }

  @EndUserKeys()
  @Put(':process_id')
  @ApiSuccess({ type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors(
    400,
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['process IDP… is already success', 'process_finished'] },
  )
  async update(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: UpdateProcessDto) {
    return presentProcess(await this.updateProcess.execute(caller, id, dto));
  }

  @Delete(':process_id')
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['process_id', 'deleted'],
      properties: { process_id: { type: 'string' }, deleted: { type: 'boolean' } },
    },
    example: { process_id: PROCESS_EXAMPLE.process_id, deleted: true },
    description: 'Deleted: hidden from reads',
  })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async remove(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    await this.deleteProcess.execute(caller, id);
    return { process_id: id, deleted: true };
  }

  @EndUserKeys()
  @Post(':process_id/verifications')
  @HttpCode(200)
  @ApiSuccess({ type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors(
    400,
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['process IDP… is already success', 'process_finished'] },
  )
  async addVerification(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Body() dto: AddVerificationDto,
  ) {
    return presentProcess(await this.addVerificationStep.execute(caller, id, dto));
  }

  @EndUserKeys()
  @Post(':process_id/back')
  @HttpCode(200)
  @ApiSuccess({ type: ProcessResponse, example: PROCESS_EXAMPLE })
  @ApiEnvelopeErrors(
    400,
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['the process is on its first step', 'no_step_back'] },
  )
  async back(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: BackDto) {
    return presentProcess(await this.stepBack.execute(caller, id, dto));
  }

  @Post(':process_id/override-status')
  @HttpCode(200)
  @ApiSuccess({ type: ProcessResponse, example: { ...PROCESS_EXAMPLE, status: 'success', override_status: 'success' } })
  @ApiEnvelopeErrors(
    400,
    { 404: ['process IDPnope not found', 'process_not_found'] },
    { 409: ['only a finished process can be overridden', 'process_not_finished'] },
  )
  async override(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: OverrideStatusDto) {
    return presentProcess(await this.overrideStatus.execute(caller, id, dto));
  }

  @EndUserKeys()
  @Get(':process_id/result')
  @ApiSuccess({ schema: RESULT_SCHEMA, example: RESULT_EXAMPLE })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async result(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentResult(await this.processes.get(caller, id));
  }

  @EndUserKeys()
  @Get(':process_id/validations')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: { validations: { type: 'array', items: { type: 'object', additionalProperties: true } } },
    },
    example: { validations: RESULT_EXAMPLE.details.validations },
  })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async validations(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { validations: presentResult(await this.processes.get(caller, id)).details.validations };
  }

  @EndUserKeys()
  @Get(':process_id/variables')
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: {
        process_id: { type: 'string' },
        variables: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    example: { process_id: PROCESS_EXAMPLE.process_id, variables: RESULT_EXAMPLE.details.variables },
  })
  @ApiEnvelopeErrors({ 404: ['process IDPnope not found', 'process_not_found'] })
  async variables(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { process_id: id, variables: (await this.processes.get(caller, id)).variables };
  }
}

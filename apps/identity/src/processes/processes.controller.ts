import { Caller, CurrentCaller, pageLinks, PlatformConfig } from '@kyc/platform';
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
import { presentProcess, presentResult } from './process.presenter';
import { ProcessesService } from './processes.service';

@ApiTags('processes')
@Controller('v1/processes')
export class ProcessesController {
  constructor(
    private readonly processes: ProcessesService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller) {
    const p = await this.processes.create(caller);
    return presentProcess(p);
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListProcessesQuery, @Req() req: FastifyRequest) {
    const page = await this.processes.list(caller, query);
    return { processes: page.items.map(presentProcess), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':process_id')
  async get(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentProcess(await this.processes.get(caller, id));
  }

  @Post(':process_id')
  @HttpCode(200)
  async submit(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: StepInputDto) {
    return presentProcess(await this.processes.submitStep(caller, id, dto));
  }

  @Put(':process_id')
  async update(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: UpdateProcessDto) {
    return presentProcess(await this.processes.update(caller, id, dto));
  }

  @Delete(':process_id')
  @HttpCode(204)
  async remove(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    await this.processes.remove(caller, id);
  }

  @Post(':process_id/verifications')
  @HttpCode(200)
  async addVerification(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Body() dto: AddVerificationDto,
  ) {
    return presentProcess(await this.processes.addVerification(caller, id, dto));
  }

  @Post(':process_id/back')
  @HttpCode(200)
  async back(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: BackDto) {
    return presentProcess(await this.processes.back(caller, id, dto));
  }

  @Post(':process_id/override-status')
  @HttpCode(200)
  async override(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: OverrideStatusDto) {
    return presentProcess(await this.processes.override(caller, id, dto));
  }

  @Get(':process_id/result')
  async result(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentResult(await this.processes.get(caller, id));
  }

  @Get(':process_id/validations')
  async validations(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { validations: presentResult(await this.processes.get(caller, id)).details.validations };
  }

  @Get(':process_id/variables')
  async variables(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { process_id: id, variables: (await this.processes.get(caller, id)).variables };
  }
}

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
import { ProcessCreationService } from './process-creation.service';
import { ProcessNavigationService } from './process-navigation.service';
import { ProcessOverrideService } from './process-override.service';
import { ProcessQueryService } from './process-query.service';
import { ProcessStepsService } from './process-steps.service';

@ApiTags('processes')
@Controller('v1/processes')
export class ProcessesController {
  constructor(
    private readonly creation: ProcessCreationService,
    private readonly query: ProcessQueryService,
    private readonly steps: ProcessStepsService,
    private readonly navigation: ProcessNavigationService,
    private readonly overrides: ProcessOverrideService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller) {
    const p = await this.creation.create(caller);
    return presentProcess(p);
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListProcessesQuery, @Req() req: FastifyRequest) {
    const page = await this.query.list(caller, query);
    return { processes: page.items.map(presentProcess), ...pageLinks(this.config.publicUrl, req.url, page.nextKey) };
  }

  @Get(':process_id')
  async get(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentProcess(await this.query.get(caller, id));
  }

  @Post(':process_id')
  @HttpCode(200)
  async submit(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: StepInputDto) {
    return presentProcess(await this.steps.submitStep(caller, id, dto));
  }

  @Put(':process_id')
  async update(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: UpdateProcessDto) {
    return presentProcess(await this.navigation.update(caller, id, dto));
  }

  @Delete(':process_id')
  @HttpCode(204)
  async remove(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    await this.navigation.remove(caller, id);
  }

  @Post(':process_id/verifications')
  @HttpCode(200)
  async addVerification(
    @CurrentCaller() caller: Caller,
    @Param('process_id') id: string,
    @Body() dto: AddVerificationDto,
  ) {
    return presentProcess(await this.navigation.addVerification(caller, id, dto));
  }

  @Post(':process_id/back')
  @HttpCode(200)
  async back(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: BackDto) {
    return presentProcess(await this.navigation.back(caller, id, dto));
  }

  @Post(':process_id/override-status')
  @HttpCode(200)
  async override(@CurrentCaller() caller: Caller, @Param('process_id') id: string, @Body() dto: OverrideStatusDto) {
    return presentProcess(await this.overrides.override(caller, id, dto));
  }

  @Get(':process_id/result')
  async result(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return presentResult(await this.query.get(caller, id));
  }

  @Get(':process_id/validations')
  async validations(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { validations: presentResult(await this.query.get(caller, id)).details.validations };
  }

  @Get(':process_id/variables')
  async variables(@CurrentCaller() caller: Caller, @Param('process_id') id: string) {
    return { process_id: id, variables: (await this.query.get(caller, id)).variables };
  }
}

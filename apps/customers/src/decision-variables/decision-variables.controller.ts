import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { DecisionVariable } from './decision-variable.catalog';
import { DecisionVariablesService } from './decision-variables.service';
import {
  DECISION_VALUES_EXAMPLE,
  DECISION_VARIABLE_EXAMPLE,
  DecisionValuesPageResponse,
  DecisionVariableResponse,
} from './dto/decision-variable.response';
import { ListAvailableVariablesQuery } from './dto/list-available.query';
import { ListDecisionValuesQuery } from './dto/list-values.query';

const presentVariable = ({ sql: _sql, ...wire }: DecisionVariable) => wire;

@ApiTags('decision-variables')
@BackendKeys()
@Controller('v1/customers/decision-variables')
export class DecisionVariablesController {
  constructor(
    private readonly variables: DecisionVariablesService,
    private readonly config: PlatformConfig,
  ) {}

  @Get()
  @ApiSuccess({ type: DecisionValuesPageResponse, example: DECISION_VALUES_EXAMPLE })
  @ApiEnvelopeErrors(400)
  async values(@CurrentCaller() caller: Caller, @Query() query: ListDecisionValuesQuery, @Req() req: FastifyRequest) {
    const page = await this.variables.values(caller, query);
    return {
      start_date: page.startDate,
      end_date: page.endDate,
      decision_variables: page.items,
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get('available')
  @ApiPage({
    items: 'decision_variables',
    type: DecisionVariableResponse,
    example: [DECISION_VARIABLE_EXAMPLE],
    self: '/v1/customers/decision-variables/available?category=risk',
  })
  @ApiEnvelopeErrors(400)
  available(@Query() query: ListAvailableVariablesQuery, @Req() req: FastifyRequest) {
    const page = this.variables.available(query);
    return {
      decision_variables: page.items.map(presentVariable),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }
}

import { ApiEnvelopeErrors, ApiSuccess, BackendKeys } from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';

import { DatabaseHealthResponse } from './dto/database-health.response';
import { HealthQuery } from './dto/health.query';
import { HealthService } from './health.service';

/** Status of a country's databases now, or hour by hour for a day (`/v1/checks/health` is the public API's path). */
@ApiTags('checks')
@BackendKeys()
@Controller()
export class DatabaseHealthController {
  constructor(private readonly health: HealthService) {}

  @Get(['v1/health', 'v1/checks/health'])
  @ApiSuccess({
    schema: { type: 'array', items: { $ref: getSchemaPath(DatabaseHealthResponse) } },
    example: [
      {
        database_id: 'sandbox-co-police',
        database_name: 'Sandbox Policía Nacional (antecedentes judiciales)',
        data_sets: ['criminal_record'],
        status: 'operational',
        runs: 42,
        average_latency_ms: 712,
        hourly_status: [...Array<string>(6).fill('operational'), ...Array<string>(18).fill('undetermined')],
      },
    ],
  })
  @ApiExtraModels(DatabaseHealthResponse)
  @ApiEnvelopeErrors(400)
  databases(@Query() query: HealthQuery) {
    return this.health.databases(query);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { HealthQuery } from './dto/health.query';
import { HealthService } from './health.service';

/** Status of a country's databases now, or hour by hour for a day (`/v1/checks/health` is the public API's path). */
@ApiTags('checks')
@Controller()
export class DatabaseHealthController {
  constructor(private readonly health: HealthService) {}

  @Get(['v1/health', 'v1/checks/health'])
  databases(@Query() query: HealthQuery) {
    return this.health.databases(query);
  }
}

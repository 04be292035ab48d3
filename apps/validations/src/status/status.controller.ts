import { ApiSuccess, BackendKeys } from '@kyc/platform';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { STATUS_EXAMPLE, StatusResponse } from './dto/status.response';
import { StatusService } from './status.service';

@ApiTags('status')
@BackendKeys()
@Controller('v1/status')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Get()
  @ApiSuccess({ type: StatusResponse, example: STATUS_EXAMPLE })
  get() {
    return this.status.status();
  }
}

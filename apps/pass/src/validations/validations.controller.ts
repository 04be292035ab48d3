import { Public } from '@kyc/platform';
import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { WriteValidationsDto } from './dto/write-validations.dto';
import { ValidationsService } from './validations.service';

/** Externally done validations, written by allow-listed applications (Bearer token with validations:write). */
@ApiTags('oauth2')
@Public()
@Controller('v1/oauth2/validations')
export class ValidationsController {
  constructor(private readonly validations: ValidationsService) {}

  @Post()
  @HttpCode(200)
  async write(@Headers('authorization') authorization: string | undefined, @Body() dto: WriteValidationsDto) {
    return this.validations.write(authorization, dto);
  }
}

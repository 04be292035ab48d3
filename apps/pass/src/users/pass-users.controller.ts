import { ApiEnvelopeErrors, ApiSuccess, PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { USER_SCHEMA } from '../openapi/pass-schemas';
import { SeedUserDto } from './dto/seed-user.dto';
import { PassUsersService } from './pass-users.service';

/** Operator: seeds a person's verified data (until identity and validations publish their events). */
@ApiTags('users')
@PlatformAdmin()
@Controller('v1/admin/users')
export class PassUsersController {
  constructor(private readonly users: PassUsersService) {}

  @Put()
  @ApiSuccess({
    schema: USER_SCHEMA,
    example: {
      user: {
        id: '5f1d7c2e-0b7a-4c1e-9d4f-2a6b8c0e1f3a',
        email: 'ana@example.com',
        phone_number: '+573001234567',
        phone_verified: true,
      },
    },
    description: 'The person, created or replaced',
  })
  @ApiEnvelopeErrors(400)
  async seed(@Body() dto: SeedUserDto) {
    const user = await this.users.seed(dto);
    return {
      user: { id: user.id, email: user.email, phone_number: user.phoneNumber, phone_verified: user.phoneVerified },
    };
  }
}

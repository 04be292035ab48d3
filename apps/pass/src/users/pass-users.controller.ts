import { PlatformAdmin } from '@kyc/platform';
import { Body, Controller, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { SeedUserDto } from './dto/seed-user.dto';
import { PassUsersService } from './pass-users.service';

/** Operator: seeds a person's verified data (until identity and validations publish their events). */
@ApiTags('users')
@PlatformAdmin()
@Controller('v1/admin/users')
export class PassUsersController {
  constructor(private readonly users: PassUsersService) {}

  @Put()
  async seed(@Body() dto: SeedUserDto) {
    const user = await this.users.seed(dto);
    return {
      user: { id: user.id, email: user.email, phone_number: user.phoneNumber, phone_verified: user.phoneVerified },
    };
  }
}

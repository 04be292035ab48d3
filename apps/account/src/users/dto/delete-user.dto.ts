import { ApiProperty } from '@nestjs/swagger';

import { UserEmail } from './user-fields';

/** DELETE /v1/account/users: the user is named by e-mail in the body (form or JSON), not in the path. */
export class DeleteUserDto {
  @ApiProperty()
  @UserEmail()
  email!: string;
}

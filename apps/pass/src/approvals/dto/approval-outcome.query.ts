import { IsString, MaxLength, MinLength } from 'class-validator';

/** GET /v1/oauth2/approval-outcome. */
export class ApprovalOutcomeQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  auth_req_id!: string;
}
